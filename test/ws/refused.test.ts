import { type RunningServer, startServer } from '@curbside/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { wsUrlOf } from './live';

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

/** Answers the HTTP status of a refused upgrade, or 101 when the socket opened. */
const upgradeStatus = (url: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.once('error', (error) => {
      if (!/Unexpected server response|closed before/.test(error.message)) reject(error);
    });
  });

describe('a WebSocket upgrade that $connect does not accept', () => {
  it('is refused with the handler status and never opens', async () => {
    expect(await upgradeStatus(wsUrlOf(server.url), { cookie: 'curbside_session=1-abc' })).toBe(500);
  });

  it('is refused with 403 when a page of another site opens it (its Origin is not the site)', async () => {
    const url = wsUrlOf(server.url);
    expect(await upgradeStatus(url, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus(url, { origin: 'http://127.0.0.1.evil.example' })).toBe(403);
    expect(await upgradeStatus(url, { origin: server.url })).toBe(101);
  });

  it('is refused with 404 on any path but /ws', async () => {
    expect(await upgradeStatus(`${server.url.replace(/^http/, 'ws')}/socket`)).toBe(404);
  });
});
