import { areaRoutes, returns, route, VIEWER_ADDRESS_HEADER } from '@curbside/api';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '@curbside/domain';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientAddress } from '../src/lib/auth';
import { httpHandler, Reply } from '../src/lib/http';

const event = (overrides: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: 'POST /api/things/{id}',
  rawPath: '/api/things/7',
  rawQueryString: '',
  headers: { 'content-type': 'application/json' },
  requestContext: {
    accountId: 'local',
    apiId: 'local',
    domainName: 'localhost',
    domainPrefix: 'localhost',
    http: {
      method: 'POST',
      path: '/api/things/7',
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'test',
    },
    requestId: 'r1',
    routeKey: 'POST /api/things/{id}',
    stage: '$default',
    time: '',
    timeEpoch: 0,
  },
  pathParameters: { id: '7' },
  isBase64Encoded: false,
  ...overrides,
});
const context = {} as Context;

const { things } = areaRoutes('admin', {
  things: route({
    method: 'POST',
    path: '/api/things/{id}',
    request: {
      params: z.object({ id: z.coerce.number().int().positive() }),
      body: z.object({ name: z.string().trim().min(1, 'Name is required') }),
    },
    access: 'public',
    response: returns<{ id: number; name: string }>(),
  }),
});

const call = async (handler: ReturnType<typeof httpHandler>, e: APIGatewayProxyEventV2) => {
  const result = await handler(e, context);
  return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined, result };
};

describe('the HTTP middy chain', () => {
  const echo = httpHandler(things, async ({ params, body }) => ({ id: params.id, name: body.name }));

  it('hands the service parsed and validated params and body', async () => {
    const { status, body } = await call(echo, event({ body: JSON.stringify({ name: '  Bus 1 ' }) }));
    expect(status).toBe(200);
    expect(body).toEqual({ id: 7, name: 'Bus 1' });
  });

  it('answers 400 with the message and field issues when the body is invalid', async () => {
    const { status, body } = await call(echo, event({ body: JSON.stringify({ name: '' }) }));
    expect(status).toBe(400);
    expect(body).toEqual({
      message: 'Name is required',
      issues: [{ path: 'name', message: 'Name is required' }],
    });
  });

  it('answers 400 when a path parameter is invalid', async () => {
    const { status, body } = await call(echo, event({ pathParameters: { id: 'abc' }, body: '{"name":"x"}' }));
    expect(status).toBe(400);
    expect(body.issues[0].path).toBe('id');
  });

  it('answers 400, not 500, when the body is not JSON', async () => {
    const { status, body } = await call(echo, event({ body: '{nope' }));
    expect(status).toBe(400);
    expect(body).toEqual({ message: 'Request body is not valid JSON' });
  });

  it('reads a base64-encoded body', async () => {
    const encoded = Buffer.from(JSON.stringify({ name: 'Car 12' })).toString('base64');
    const { body } = await call(echo, event({ body: encoded, isBase64Encoded: true }));
    expect(body.name).toBe('Car 12');
  });

  it.each([
    [new ValidationError('Bad'), 400],
    [new UnauthorizedError(), 401],
    [new ForbiddenError(), 403],
    [new NotFoundError('Session not found'), 404],
    [new ConflictError('Vehicle 12 is already in the queue'), 409],
  ])('maps %s to its status with its message', async (error, status) => {
    const failing = httpHandler(things, async () => {
      throw error;
    });
    const answer = await call(failing, event({ body: '{"name":"x"}' }));
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ message: error.message });
  });

  it('answers 500 with a generic message and never leaks the stack or SDK error', async () => {
    const failing = httpHandler(things, async () => {
      const error = new Error('ResourceNotFoundException: table arn:aws:dynamodb:secret');
      error.name = 'ResourceNotFoundException';
      throw error;
    });
    const answer = await call(failing, event({ body: '{"name":"x"}' }));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ message: 'Something went wrong. Please try again.' });
    expect(answer.result.body).not.toMatch(/arn:|at |ResourceNotFound/);
  });

  it('sends every cookie of a Reply and its status', async () => {
    const login = httpHandler(
      things,
      async () => new Reply({ id: 1, name: 'x' }, { status: 201, cookies: ['a=1', 'b=2'] }),
    );
    const answer = await call(login, event({ body: '{"name":"x"}' }));
    expect(answer.status).toBe(201);
    expect(answer.result.cookies).toEqual(['a=1', 'b=2']);
  });

  it('passes cookies to the service as a map', async () => {
    const cookieEcho = httpHandler(things, async ({ cookies }) => ({ id: 1, name: cookies.session ?? '' }));
    const answer = await call(
      cookieEcho,
      event({ body: '{"name":"x"}', cookies: ['session=abc%3D', 'theme=dark'] }),
    );
    expect(answer.body.name).toBe('abc=');
  });
});

describe('the address a request is throttled under', () => {
  const from = (headers: Record<string, string>) => event({ headers });

  it('is the visitor address CloudFront stamped, where the handler sits behind CloudFront', () => {
    expect(clientAddress(from({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }), true)).toBe('203.0.113.7');
    expect(clientAddress(from({}), true)).toBe('127.0.0.1');
  });

  it('is the connection address anywhere else, whatever header the browser sends', () => {
    expect(clientAddress(from({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }), false)).toBe('127.0.0.1');
  });
});
