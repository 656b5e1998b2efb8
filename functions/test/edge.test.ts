import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { areaRoutes, ORIGIN_SECRET_HEADER, returns, route, VIEWER_ADDRESS_HEADER } from '@curbside/api';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

/**
 * Behind CloudFront: the handlers serve only what CloudFront forwarded (it
 * adds the origin secret), and only then trust the visitor address header.
 * Secrets Manager is mocked (there is no local emulator of it).
 */
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:OriginSecret-AbCdEf';
const secrets = mockClient(SecretsManagerClient);
let stages: Record<string, string | undefined>;

let edge: typeof import('../src/lib/edge');
let http: typeof import('../src/lib/http');
let auth: typeof import('../src/lib/auth');
let connect: typeof import('../src/ws/connect');
beforeAll(async () => {
  // As the stack sets them on the functions behind CloudFront; read once, when the modules load.
  process.env.ORIGIN_SECRET_ARN = SECRET_ARN;
  process.env.TRUST_VIEWER_ADDRESS = '1';
  edge = await import('../src/lib/edge');
  http = await import('../src/lib/http');
  auth = await import('../src/lib/auth');
  connect = await import('../src/ws/connect');
});
afterAll(() => {
  secrets.restore();
  delete process.env.ORIGIN_SECRET_ARN;
  delete process.env.TRUST_VIEWER_ADDRESS;
});
beforeEach(() => {
  stages = { AWSCURRENT: 'current-secret-value' };
  secrets.reset();
  secrets.on(GetSecretValueCommand).callsFake(({ SecretId, VersionStage }) => {
    if (SecretId !== SECRET_ARN) throw new Error(`unexpected secret ${SecretId}`);
    const value = stages[VersionStage ?? 'AWSCURRENT'];
    if (value === undefined)
      throw Object.assign(new Error('no such version'), { name: 'ResourceNotFoundException' });
    return { SecretString: value };
  });
  edge.forgetOriginSecret();
});

const { whereFrom } = areaRoutes('auth', {
  whereFrom: route({
    method: 'GET',
    path: '/api/where-from',
    request: { query: z.object({}) },
    access: 'public',
    response: returns<{ address: string }>(),
  }),
});

const event = (headers: Record<string, string>): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'GET /api/where-from',
    rawPath: '/api/where-from',
    rawQueryString: '',
    headers,
    requestContext: {
      http: {
        method: 'GET',
        path: '/api/where-from',
        protocol: 'HTTP/1.1',
        sourceIp: '198.51.100.9',
        userAgent: 't',
      },
      routeKey: 'GET /api/where-from',
    },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const call = async (headers: Record<string, string>) => {
  const handler = http.httpHandler(whereFrom, async ({ event: e }) => ({ address: auth.clientAddress(e) }));
  const result = await handler(event(headers), {} as Context);
  return { status: result.statusCode, body: JSON.parse(result.body ?? 'null') };
};

describe('a request that did not come through CloudFront', () => {
  it('is refused before anything else, whatever visitor address it claims', async () => {
    expect(await call({ [VIEWER_ADDRESS_HEADER]: '10.0.0.1' })).toEqual({
      status: 403,
      body: { message: 'Forbidden' },
    });
    expect(
      (await call({ [VIEWER_ADDRESS_HEADER]: '10.0.0.2', [ORIGIN_SECRET_HEADER]: 'guess' })).status,
    ).toBe(403);
  });
});

describe('a request CloudFront forwarded', () => {
  it('is served, and throttled under the visitor address CloudFront stamped', async () => {
    const answer = await call({
      [VIEWER_ADDRESS_HEADER]: '203.0.113.7',
      [ORIGIN_SECRET_HEADER]: 'current-secret-value',
    });
    expect(answer).toEqual({ status: 200, body: { address: '203.0.113.7' } });
  });

  it('is served with the pending or previous value while a rotation reaches every edge', async () => {
    stages = { AWSCURRENT: 'new-value', AWSPENDING: 'new-value', AWSPREVIOUS: 'current-secret-value' };
    expect((await call({ [ORIGIN_SECRET_HEADER]: 'current-secret-value' })).status).toBe(200);
    expect((await call({ [ORIGIN_SECRET_HEADER]: 'new-value' })).status).toBe(200);
  });

  it('is served with a value rotated in since the last look (fetched again, not every time)', async () => {
    expect((await call({ [ORIGIN_SECRET_HEADER]: 'current-secret-value' })).status).toBe(200);
    const fetches = secrets.commandCalls(GetSecretValueCommand).length;
    stages = { AWSCURRENT: 'rotated-value', AWSPREVIOUS: 'current-secret-value' };
    // Within 30 s of the last fetch a stray value does not make it fetch again...
    expect((await call({ [ORIGIN_SECRET_HEADER]: 'rotated-value' })).status).toBe(403);
    expect(secrets.commandCalls(GetSecretValueCommand).length).toBe(fetches);
    // ...after that it does, and the new value is served.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    try {
      expect((await call({ [ORIGIN_SECRET_HEADER]: 'rotated-value' })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('$connect', () => {
  const connectEvent = (headers: Record<string, string>) =>
    ({
      requestContext: { routeKey: '$connect', connectionId: 'c-edge', eventType: 'CONNECT' },
      headers,
    }) as never;

  it('refuses a connection that did not come through CloudFront', async () => {
    const answer = await connect.handler(
      connectEvent({ Host: 'abc.execute-api.us-east-1.amazonaws.com' }),
      {} as Context,
    );
    expect(answer).toEqual({ statusCode: 403 });
  });
});
