import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, pickupSessions } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type RunningServer, startServer } from '../src/gateway';

/** The record's actor and retention for changes this test makes straight in the store. */
const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };

const tableName = process.env.TABLE_NAME as string;
const dynamoEndpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
const INDEX = '<!doctype html><title>Curbside</title>';

let webDist: string;
let server: RunningServer;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'curbside-dist-'));
  writeFileSync(join(webDist, 'index.html'), INDEX);
  writeFileSync(join(webDist, 'favicon.svg'), '<svg/>');
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(webDist, 'assets', 'index-abc123.css'), 'body{}');
  server = await startServer({ port: 0, tableName, dynamoEndpoint, webDist });
});

afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('static web app', () => {
  it('serves hashed assets with their content type and a long cache', async () => {
    const js = await fetch(`${server.url}/assets/index-abc123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log(1)');
    const css = await fetch(`${server.url}/assets/index-abc123.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves index.html at / and other files without the long cache', async () => {
    const index = await fetch(`${server.url}/`);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toBe(INDEX);
    const icon = await fetch(`${server.url}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing hashed asset with 404, not with index.html', async () => {
    const response = await fetch(`${server.url}/assets/index-old999.js`);
    expect(response.status).toBe(404);
  });

  it('never serves a file outside webDist', async () => {
    const response = await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
  });

  it('says how to build the web app when there is none', async () => {
    const bare = await startServer({ port: 0, tableName, dynamoEndpoint, webDist: join(webDist, 'missing') });
    try {
      const response = await fetch(`${bare.url}/queue`);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toMatch(/not built.*npm start/s);
      expect((await fetch(`${bare.url}/api/health`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('server lifecycle', () => {
  it('refuses a port already in use with EADDRINUSE', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startServer({ port, tableName, dynamoEndpoint })).rejects.toMatchObject({
        code: 'EADDRINUSE',
        message: expect.stringContaining(String(port)),
      });
    } finally {
      blocker.close();
    }
  });

  it('close() closes open WebSockets and frees the port', async () => {
    const own = await startServer({ port: 0, tableName, dynamoEndpoint });
    const socket = new WebSocket(`${own.url.replace(/^http/, 'ws')}/ws`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    await own.close();
    expect(await closed).toBe(1001);
    await expect(fetch(`${own.url}/api/health`)).rejects.toThrow();
  });

  it('runs the schedules: an overdue pickup session is ended without anyone calling the API', async () => {
    const db = createDb({ table: tableName, endpoint: dynamoEndpoint });
    const session = await pickupSessions.create(
      db,
      {
        schoolId: 9001,
        name: 'Afternoon Pickup',
        type: 'afternoon_pickup',
        startTime: new Date(Date.now() - 3 * 3_600_000).toISOString(),
        endTime: new Date(Date.now() - 60_000).toISOString(),
        notes: null,
      },
      rec,
    );
    const scheduled = await startServer({ port: 0, tableName, dynamoEndpoint, runSchedules: true });
    try {
      const deadline = Date.now() + 10_000;
      let status = (await pickupSessions.get(db, session.id))?.status;
      while (status !== 'ended' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await pickupSessions.get(db, session.id))?.status;
      }
      expect(status).toBe('ended');
    } finally {
      await scheduled.close();
    }
  });
});
