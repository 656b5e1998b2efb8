import { areaRoutes, returns, route } from '@curbside/api';
import { users } from '@curbside/store';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { db } from '../../packages/store/test/fixtures/db';
import { SESSION_COOKIE } from '../src/lib/auth';
import { type EarlyReads, httpHandler } from '../src/lib/http';
import { signInVouched } from '../src/services/auth';

/**
 * A route's early reads (issue 56) start beside the caller's sign-in from the
 * route's validated input, never from the raw request: a request its schemas
 * refuse starts no read, and a refused caller still hears 401 before 400.
 */

const { thing } = areaRoutes('carLine', {
  thing: route({
    method: 'POST',
    path: '/api/things/{id}',
    request: {
      params: z.object({ id: z.coerce.number().int().positive() }),
      body: z.object({ name: z.string().trim().min(1, 'Name is required') }),
    },
    access: 'signedIn',
    response: returns<{ id: number; name: string; early: string | null }>(),
  }),
});
type ThingRequest = (typeof thing)['request'];

const event = (id: string, body: unknown, token: string): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /api/things/{id}',
    rawPath: `/api/things/${id}`,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', host: 'localhost' },
    cookies: [`${SESSION_COOKIE}=${token}`],
    requestContext: {
      http: { method: 'POST', path: `/api/things/${id}`, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
      requestId: 'r1',
      routeKey: 'POST /api/things/{id}',
    },
    pathParameters: { id },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

/** A handler of `thing` whose early reads note what they were started from, and answer with it. */
const thingWithEarly = () => {
  const started: Array<{ userId: number; input: unknown }> = [];
  const early: EarlyReads<ThingRequest, string> = (userId, input) => {
    started.push({ userId, input });
    return Promise.resolve(`read for thing ${input.params.id}`);
  };
  const handler = httpHandler(
    thing,
    async ({ params, body, early: reads }) => ({
      id: params.id,
      name: body.name,
      early: (await reads) ?? null,
    }),
    [],
    { early },
  );
  const call = async (e: APIGatewayProxyEventV2) => {
    const result = await handler(e, {} as Context);
    return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
  };
  return { started, call };
};

let token: string;
let userId: number;
beforeAll(async () => {
  const user = await users.create(db, {
    name: 'Early Tester',
    username: 'early_input_tester',
    email: null,
    phone: null,
    role: 'front_queue_wrangler',
    active: true,
    schoolId: 1,
    districtId: 1,
    passwordHash: '!',
  });
  userId = user.id;
  token = (await signInVouched(user)).token;
});

describe("a route's early reads", () => {
  it('start from the validated input (params coerced, body trimmed), and their reads reach the service', async () => {
    const { started, call } = thingWithEarly();
    const answer = await call(event('7', { name: '  Bus 1 ' }, token));
    expect(answer).toEqual({ status: 200, body: { id: 7, name: 'Bus 1', early: 'read for thing 7' } });
    expect(started).toEqual([
      { userId, input: { params: { id: 7 }, query: undefined, body: { name: 'Bus 1' } } },
    ]);
  });

  it.each([
    ['a body its schema refuses', '7', { name: '   ' }],
    ['a path parameter its schema refuses', '-3', { name: 'Bus 1' }],
    ['a body that is not what the route takes', '7', 'Bus 1'],
  ])('start no read for %s (answered 400)', async (_, id, body) => {
    const { started, call } = thingWithEarly();
    const answer = await call(event(id, body, token));
    expect(answer.status).toBe(400);
    expect(started).toEqual([]);
  });

  it('start beside the sign-in, before it is known (a token no session has: 401, the read dropped)', async () => {
    const { started, call } = thingWithEarly();
    const answer = await call(event('7', { name: 'Bus 1' }, '999999-no-such-session'));
    expect(answer.status).toBe(401);
    expect(started.map((s) => s.userId)).toEqual([999999]);
  });

  it('leave a refused caller refused first: 401, not 400, for a bad body without a sign-in', async () => {
    const { started, call } = thingWithEarly();
    const answer = await call(event('7', { name: '' }, '999999-no-such-session'));
    expect(answer.status).toBe(401);
    expect(started).toEqual([]);
  });
});
