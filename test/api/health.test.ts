import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@curbside/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const INDEX = '<!doctype html><title>Curbside</title><div id="root"></div>';

describe('HTTP through the laptop gateway', () => {
  let server: RunningServer;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'curbside-web-'));
    writeFileSync(join(webDist, 'index.html'), INDEX);
    server = await startServer({
      port: 0,
      tableName: process.env.TABLE_NAME as string,
      dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
      webDist,
    });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('GET /api/health answers 200 { ok: true } after a round trip to the table, and no demo', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ ok: true, demo: false });
  });

  it('an unknown API path is a 404 JSON { message }', async () => {
    const response = await fetch(`${server.url}/api/nope`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ message: 'Not found' });
  });

  it('a known API path with the wrong method is a 405 JSON { message }', async () => {
    const response = await fetch(`${server.url}/api/health`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await response.json()).toEqual({ message: expect.any(String) });
  });

  it('a body over 1 MB is refused with 413', async () => {
    const response = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'y' }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: expect.any(String) });
  });

  it('any other path gets index.html so client-side routes load (history fallback)', async () => {
    const response = await fetch(`${server.url}/queue/front?tab=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX);
  });
});
