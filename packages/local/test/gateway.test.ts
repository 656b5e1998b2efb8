import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { pickupSessions } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { testDb } from '../../store/test/fixtures/db';
import { type RunningServer, startServer } from '../src/gateway';

/** The record's actor and retention for changes this test makes straight in the store. */
const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };

const tableName = process.env.TABLE_NAME as string;
const dynamoEndpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
const INDEX = '<!doctype html><title>Curbside</title>';
/** A hashed script the build compressed (its copies beside it, as web/precompress.ts writes them). */
const SCRIPT = `export const texts = ${JSON.stringify('Pickup '.repeat(400))};`;

let webDist: string;
let server: RunningServer;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'curbside-dist-'));
  writeFileSync(join(webDist, 'index.html'), INDEX);
  writeFileSync(join(webDist, 'favicon.svg'), '<svg/>');
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(webDist, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(webDist, 'assets', 'parent-def456.js'), SCRIPT);
  writeFileSync(join(webDist, 'assets', 'parent-def456.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(webDist, 'assets', 'parent-def456.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(webDist, 'index.html.br'), brotliCompressSync(INDEX));
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

/** A GET as a browser sends it, answered as sent: fetch would ask for its own encodings and decode. */
const raw = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      }).on('error', reject);
    },
  );

describe('static web app, compressed as CloudFront compresses it', () => {
  it('answers a hashed asset asked with Accept-Encoding: br in Brotli, kept a year', async () => {
    const answer = await raw(`${server.url}/assets/parent-def456.js`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(answer.body).toString()).toBe(SCRIPT);
  });

  it('answers gzip to a browser without Brotli, and the file as it is to one that asks for neither', async () => {
    const gzipped = await raw(`${server.url}/assets/parent-def456.js`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(SCRIPT);
    const plain = await raw(`${server.url}/assets/parent-def456.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('answers a page route with index.html in Brotli, asked again on every load', async () => {
    const answer = await raw(`${server.url}/parent-login`, { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(answer.body).toString()).toBe(INDEX);
  });

  it('answers a file the build did not compress as it is', async () => {
    const answer = await raw(`${server.url}/assets/index-abc123.css`, { 'accept-encoding': 'br, gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toBeUndefined();
    expect(answer.body.toString()).toBe('body{}');
  });

  it('never serves the compressed copies as files of their own (CloudFront has none)', async () => {
    expect((await raw(`${server.url}/assets/parent-def456.js.br`)).status).toBe(404);
    const page = await raw(`${server.url}/index.html.br`);
    expect(page.body.toString()).toBe(INDEX);
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
    const db = testDb();
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
