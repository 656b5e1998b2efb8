import { type RunningServer, startServer } from '@curbside/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upgradeStatus } from '../support/live';

let server: RunningServer;

beforeAll(async () => {
  // A data table that does not exist: `$connect` cannot read a session cookie's session and fails.
  server = await startServer({
    port: 0,
    tableName: 'curbside-missing-table',
    dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
  });
});

afterAll(async () => {
  await server?.close();
});

describe('a WebSocket upgrade that $connect does not accept', () => {
  it('is refused with the handler status and never opens', async () => {
    expect(await upgradeStatus(server.url, { cookie: 'curbside_session=1-abc' })).toBe(500);
  });

  it('is refused with 403 when a page of another site opens it (its Origin is not the site)', async () => {
    expect(await upgradeStatus(server.url, { headers: { origin: 'https://evil.example' } })).toBe(403);
    expect(await upgradeStatus(server.url, { headers: { origin: 'http://127.0.0.1.evil.example' } })).toBe(
      403,
    );
    expect(await upgradeStatus(server.url, { headers: { origin: server.url } })).toBe(101);
  });

  it('is refused with 404 on any path but /ws', async () => {
    expect(await upgradeStatus(server.url, { path: '/socket' })).toBe(404);
  });
});
