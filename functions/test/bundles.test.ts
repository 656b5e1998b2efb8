import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleIds, functionPlan, routeKeyOf, routes } from '@curbside/api';
import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The bundles Lambda runs (`functions/dist/{id}/index.mjs`, built from the
 * route table's function plan) dispatch each event to its route's handler.
 */
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const load = async (id: string) =>
  (await import(pathToFileURL(join(dist, id, 'index.mjs')).href)) as {
    handler: (event: unknown, context: Context) => Promise<any>;
  };

beforeAll(() => {
  if (bundleIds().some((id) => !existsSync(join(dist, id, 'index.mjs')))) {
    execFileSync('npx', ['tsx', 'build.ts'], { cwd: join(dist, '..'), stdio: 'inherit' });
  }
}, 120_000);

const httpEvent = (routeKey: string) => {
  const [method, path] = routeKey.split(' ') as [string, string];
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'localhost' },
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
      routeKey,
    },
    isBase64Encoded: false,
  };
};

describe('the function bundles', () => {
  it('are one per area with routes, plus ws, scheduled and the secret rotation', () => {
    for (const id of bundleIds()) expect(existsSync(join(dist, id, 'index.mjs')), id).toBe(true);
  });

  it('answer a route of their area through its handler', async () => {
    const auth = await load('http-auth');
    const answer = await auth.handler(httpEvent('GET /api/health'), {} as Context);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true, demo: false });
    const me = await auth.handler(httpEvent('GET /api/me'), {} as Context);
    expect(me.statusCode).toBe(401);
  });

  it("check a request with its route's schema, made on first use: the same message as the sources", async () => {
    const auth = await load('http-auth');
    const event = {
      ...httpEvent('POST /api/login'),
      headers: { host: 'localhost', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ab', password: '' }),
    };
    const answer = await auth.handler(event, {} as Context);
    const expected = routes.login.request.body.safeParse({ username: 'ab', password: '' });
    expect(answer.statusCode).toBe(400);
    expect(expected.success).toBe(false);
    expect(JSON.parse(answer.body).message).toBe(expected.error?.issues[0]?.message);
  });

  it('answer 404 to a route of another area (each serves only its own routes)', async () => {
    const admin = await load('http-admin');
    const carLine = functionPlan().find((plan) => plan.id === 'http-carLine');
    const foreign = carLine?.kind === 'http' ? routeKeyOf(carLine.routes[0] as never) : '';
    const answer = await admin.handler(httpEvent(foreign), {} as Context);
    expect(answer.statusCode).toBe(404);
  });

  it('the ws bundle serves $connect: a page of another site is refused', async () => {
    const ws = await load('ws');
    const answer = await ws.handler(
      {
        requestContext: { routeKey: '$connect', connectionId: 'bundle-test', eventType: 'CONNECT' },
        headers: { Host: 'localhost', Origin: 'https://evil.example' },
      },
      {} as Context,
    );
    expect(answer).toEqual({ statusCode: 403 });
  });
});
