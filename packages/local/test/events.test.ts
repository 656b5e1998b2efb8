import { matchPath, routeList } from '@curbside/api';
import { describe, expect, it } from 'vitest';
import { fromHttpResult, matchRoute, type RequestLike, toHttpEvent } from '../src/events';

const request = (overrides: Partial<RequestLike> = {}): RequestLike => ({
  method: 'GET',
  url: '/api/health',
  httpVersion: '1.1',
  headers: { host: 'localhost:3000', 'user-agent': 'vitest' },
  socket: { remoteAddress: '::ffff:127.0.0.1' },
  ...overrides,
});

const now = new Date(Date.UTC(2025, 2, 12, 19, 3, 58, 123));

describe('matchRoute', () => {
  const routes = [
    { name: 'getThing', method: 'GET', path: '/api/things/{id}' },
    { name: 'activeThing', method: 'GET', path: '/api/things/active' },
    { name: 'endThing', method: 'PUT', path: '/api/things/{id}/end' },
  ] as const;

  it('answers the route, its route key and decoded path parameters', () => {
    const match = matchRoute('PUT', '/api/things/a%20b/end', routes);
    expect(match).toEqual({
      kind: 'route',
      route: routes[2],
      routeKey: 'PUT /api/things/{id}/end',
      pathParameters: { id: 'a b' },
    });
  });

  it('prefers a literal segment over a path parameter, as API Gateway does', () => {
    const match = matchRoute('GET', '/api/things/active', routes);
    expect(match.kind === 'route' && match.route.name).toBe('activeThing');
    const other = matchRoute('GET', '/api/things/7', routes);
    expect(other.kind === 'route' && other.route.name).toBe('getThing');
  });

  it('tells a known path with another method (405) from an unknown path (404)', () => {
    expect(matchRoute('DELETE', '/api/things/7', routes)).toEqual({ kind: 'method', allowed: ['GET'] });
    expect(matchRoute('GET', '/api/nope', routes)).toEqual({ kind: 'none' });
    expect(matchRoute('GET', '/api/things/', routes)).toEqual({ kind: 'none' });
  });

  it('reads the real route table by default', () => {
    const match = matchRoute('GET', '/api/health');
    expect(match.kind === 'route' && match.routeKey).toBe('GET /api/health');
  });

  it('finds every route of the table that trying each route in turn finds (h54m: routes indexed)', () => {
    // Each route's path with its parameters filled, then with a literal of another route in their place.
    const paths = routeList.flatMap((route) => [
      route.path.replace(/\{\w+\}/g, '7'),
      route.path.replace(/\{\w+\}/g, 'active'),
      route.path.replace(/\{\w+\}/g, 'students'),
    ]);
    expect(paths.length).toBeGreaterThan(100);
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        const tried = routeList.filter((route) => route.method === method && matchPath(route.path, path));
        const match = matchRoute(method, path);
        if (tried.length === 0) expect(match.kind, `${method} ${path}`).not.toBe('route');
        else {
          expect(match.kind, `${method} ${path}`).toBe('route');
          expect(tried, `${method} ${path}`).toContain(match.kind === 'route' ? match.route : undefined);
        }
      }
    }
  });
});

describe('toHttpEvent', () => {
  it('builds a payload format 2.0 event with the request context API Gateway sends', () => {
    const event = toHttpEvent({
      request: request(),
      body: Buffer.alloc(0),
      routeKey: 'GET /api/health',
      requestId: 'req-1',
      now,
    });
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /api/health',
      rawPath: '/api/health',
      rawQueryString: '',
      isBase64Encoded: false,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: 'localhost',
        domainPrefix: 'localhost',
        http: {
          method: 'GET',
          path: '/api/health',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'vitest',
        },
        requestId: 'req-1',
        routeKey: 'GET /api/health',
        stage: '$default',
        time: '12/Mar/2025:19:03:58 +0000',
        timeEpoch: now.getTime(),
      },
    });
    expect(event.headers.host).toBe('localhost:3000');
    expect(event.body).toBeUndefined();
    expect(event.cookies).toBeUndefined();
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
  });

  it('moves the Cookie header into the cookies array', () => {
    const event = toHttpEvent({
      request: request({ headers: { host: 'localhost', cookie: 'curbside_session=abc%3D; theme=dark' } }),
      body: Buffer.alloc(0),
      routeKey: 'GET /api/me',
    });
    expect(event.cookies).toEqual(['curbside_session=abc%3D', 'theme=dark']);
    expect(event.headers.cookie).toBeUndefined();
  });

  it('keeps the raw query string and comma-joins repeated parameters', () => {
    const event = toHttpEvent({
      request: request({ url: '/api/users?role=teacher&role=parent&q=a%20b&empty=' }),
      body: Buffer.alloc(0),
      routeKey: 'GET /api/users',
    });
    expect(event.rawQueryString).toBe('role=teacher&role=parent&q=a%20b&empty=');
    expect(event.rawPath).toBe('/api/users');
    expect(event.queryStringParameters).toEqual({ role: 'teacher,parent', q: 'a b', empty: '' });
  });

  it('passes path parameters from the matched route', () => {
    const event = toHttpEvent({
      request: request({ method: 'PUT', url: '/api/sessions/42/end' }),
      body: Buffer.alloc(0),
      routeKey: 'PUT /api/sessions/{id}/end',
      pathParameters: { id: '42' },
    });
    expect(event.pathParameters).toEqual({ id: '42' });
    expect(event.requestContext.http.method).toBe('PUT');
    expect(event.routeKey).toBe('PUT /api/sessions/{id}/end');
  });

  it('passes a text body as text and other bytes as base64', () => {
    const text = toHttpEvent({
      request: request({ method: 'POST' }),
      body: Buffer.from('{"name":"Zoë"}'),
      routeKey: 'POST /api/x',
    });
    expect(text).toMatchObject({ body: '{"name":"Zoë"}', isBase64Encoded: false });

    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x81]);
    const binary = toHttpEvent({
      request: request({ method: 'POST' }),
      body: bytes,
      routeKey: 'POST /api/x',
    });
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body ?? '', 'base64')).toEqual(bytes);
  });

  it('joins repeated headers with commas and adds the forwarding headers', () => {
    const event = toHttpEvent({
      request: request({ headers: { host: 'localhost:3999', accept: ['a', 'b'] as unknown as string } }),
      body: Buffer.alloc(0),
      routeKey: 'GET /api/health',
    });
    expect(event.headers.accept).toBe('a,b');
    expect(event.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(event.headers['x-forwarded-port']).toBe('3999');
    expect(event.headers['x-forwarded-proto']).toBe('http');
  });
});

describe('fromHttpResult', () => {
  it('turns every cookie into its own Set-Cookie header', () => {
    const out = fromHttpResult({
      statusCode: 201,
      headers: { 'Content-Type': 'application/json', 'X-Count': 3 },
      body: '{"ok":true}',
      cookies: ['a=1; Path=/; HttpOnly', 'b=2; Path=/'],
    });
    expect(out.statusCode).toBe(201);
    expect(out.headers['set-cookie']).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/']);
    expect(out.headers['content-type']).toBe('application/json');
    expect(out.headers['x-count']).toBe('3');
    expect(out.body.toString()).toBe('{"ok":true}');
  });

  it('decodes a base64 body', () => {
    const out = fromHttpResult({
      statusCode: 200,
      body: Buffer.from([1, 2, 255]).toString('base64'),
      isBase64Encoded: true,
    });
    expect([...out.body]).toEqual([1, 2, 255]);
    expect(out.headers['set-cookie']).toBeUndefined();
  });

  it('answers a plain object as a 200 JSON body, as API Gateway does', () => {
    const out = fromHttpResult({ ok: true, items: [1] });
    expect(out.statusCode).toBe(200);
    expect(out.headers['content-type']).toBe('application/json');
    expect(JSON.parse(out.body.toString())).toEqual({ ok: true, items: [1] });
  });

  it('answers a plain string as the body itself', () => {
    const out = fromHttpResult('Hello');
    expect(out.statusCode).toBe(200);
    expect(out.body.toString()).toBe('Hello');
  });
});
