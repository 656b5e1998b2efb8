import { fillPath, type RouteName, routeList } from '@curbside/api';
import { MUST_CHANGE_PASSWORD } from '@curbside/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, sessionBody } from '../support/fixtures';
import { upgradeStatus } from '../support/live';
import { Client, signedIn, startTestServer } from '../support/server';
import { expectedBeforeOwnPassword } from './expected-access';

/** Input a browser, a proxy or an attacker may send: never a 500, never a half-done change. */
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('a malformed cookie', () => {
  it.each(routeList.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: is ignored, the request is anonymous, never a 500',
    async (_, route) => {
      const client = new Client(server.url);
      const path = fillPath(route.path, { id: 999999, code: 'AAAA', kind: 'students' });
      // A JSON body where the route takes JSON; none where it takes another type (a CSV file).
      const body = route.method === 'GET' || route.contentType ? undefined : {};
      const answer = await client.request(route.method, path, body, {
        cookie: 'curbside_session=%; theme=%E0%A4%A',
      });
      expect(answer.status).toBeLessThan(500);
      if (route.access !== 'public') expect(answer.status).toBe(401);
    },
  );

  it('next to a good session cookie leaves the user signed in', async () => {
    const client = await signedIn(server.url, 'front_demo');
    const answer = await client.request('GET', '/api/me', undefined, { cookie: `foo=%; ${client.cookie}` });
    expect(answer.status).toBe(200);
    expect(answer.body.username).toBe('front_demo');
  });

  it('does not refuse the live connection', async () => {
    expect(await upgradeStatus(server.url, { cookie: 'curbside_session=%' })).toBe(101);
  });
});

describe('a mutation body that is not JSON', () => {
  it('answers 415 for text/plain, as a cross-site form would send it, and changes nothing', async () => {
    const front = await signedIn(server.url, 'front_demo');
    const active = (await front.get('/api/sessions/active')).body;
    if (active) await front.put(`/api/sessions/${active.id}/end`);
    const sent = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: front.cookie as string },
      body: JSON.stringify(sessionBody()),
    });
    expect(sent.status).toBe(415);
    expect(await sent.json()).toEqual({ message: 'Send the request body as application/json' });
    expect((await front.get('/api/sessions/active')).body).toBeNull();
  });

  it('answers 415 for a form body on a sign-in', async () => {
    const answer = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=front_demo&password=demo1234',
    });
    expect(answer.status).toBe(415);
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('takes JSON with a charset, and a mutation with no body at all', async () => {
    const answer = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ username: 'back_demo', password: 'demo1234' }),
    });
    expect(answer.status).toBe(200);
    const cookie = answer.headers.getSetCookie()[0]?.split(';')[0] as string;
    const out = await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(200);
  });
});

describe('bad input from a user who has not yet replaced their one-time password', () => {
  let client: Client;
  beforeAll(async () => {
    await createStaff(server.db, {
      username: 'one_time_bad_input',
      role: 'school_admin',
      schoolId: 1,
      districtId: 1,
      mustChangePassword: true,
    });
    client = await signedIn(server.url, 'one_time_bad_input');
  });

  it.each(
    routeList
      .filter((route) => expectedBeforeOwnPassword(route.name as RouteName) === 403)
      .map((route) => [`${route.method} ${route.path}`, route] as const),
  )('%s: the one-time password answer (403) comes first, never a 400 or a 500', async (_, route) => {
    const path = `${fillPath(route.path, { id: 'x', code: '!!', kind: 'nope' })}?schoolId=abc`;
    const sent = await fetch(new URL(path, server.url), {
      method: route.method,
      headers: {
        cookie: client.cookie as string,
        ...(route.method === 'GET' ? {} : { 'content-type': route.contentType ?? 'application/json' }),
      },
      ...(route.method === 'GET' ? {} : { body: '{"broken": ' }),
    });
    expect(sent.status).toBe(403);
    expect(await sent.json()).toEqual({ message: MUST_CHANGE_PASSWORD });
  });
});

describe('a crafted roster list cursor', () => {
  const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  const encode = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');

  it.each(['/api/students', '/api/parents', '/api/vehicles', '/api/teachers'])(
    '%s: a cursor with an empty or altered key field answers 400 Invalid cursor, never a 500',
    async (path) => {
      const admin = await signedIn(server.url, 'admin_demo');
      const first = await admin.get(`${path}?limit=1`);
      expect(first.status).toBe(200);
      const key = decode(first.body.next);
      for (const name of Object.keys(key)) {
        for (const value of ['', 'X']) {
          const answer = await admin.get(`${path}?limit=1&cursor=${encode({ ...key, [name]: value })}`);
          expect({ name, value, status: answer.status, message: answer.body.message }).toEqual({
            name,
            value,
            status: 400,
            message: 'Invalid cursor',
          });
        }
      }
      // The list's own cursor still reads the next page.
      expect((await admin.get(`${path}?limit=1&cursor=${first.body.next}`)).status).toBe(200);
    },
  );
});
