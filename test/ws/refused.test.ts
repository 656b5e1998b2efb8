import { type RunningServer, startServer } from '@curbside/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { wsUrlOf } from './live';

let server: RunningServer;

beforeAll(async () => {
  // A table that does not exist: `$connect` cannot store the connection and fails.
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
const upgradeStatus = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(url);
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
    expect(await upgradeStatus(wsUrlOf(server.url))).toBe(500);
  });

  it('is refused with 404 on any path but /ws', async () => {
    expect(await upgradeStatus(`${server.url.replace(/^http/, 'ws')}/socket`)).toBe(404);
  });
});
