import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, signedIn, startTestServer } from '../support/server';

/** What the laptop runtime and the handlers write to their logs: never a pickup code. */
let server: Awaited<ReturnType<typeof startTestServer>>;
const lines: string[] = [];
beforeAll(async () => {
  // Logging on for this file (before any handler reads its configuration).
  process.env.LOG_LEVEL = 'info';
  process.env.LOG_FORMAT = 'json';
  const keep = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  vi.spyOn(console, 'log').mockImplementation(keep);
  vi.spyOn(console, 'error').mockImplementation(keep);
  vi.spyOn(console, 'warn').mockImplementation(keep);
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  vi.restoreAllMocks();
  process.env.LOG_LEVEL = 'silent';
});

describe('request logs', () => {
  it('name the route, never the pickup code looked up, used or opened as an invite', async () => {
    const teacher = await signedIn(server.url, 'teacher_demo');
    const [student] = (await teacher.get('/api/teacher/students')).body;
    const code = (await teacher.post('/api/pickup-codes/generate', { studentId: student.id })).body
      .code as string;
    const visitor = new Client(server.url);
    expect((await visitor.get(`/api/pickup-codes/lookup/${code}`)).status).toBe(200);
    expect((await visitor.get('/api/pickup-codes/lookup/ZZZQ')).status).toBe(404);
    await fetch(`${server.url}/invite/${code}`);
    const parent = await signedIn(server.url, 'parent_demo');
    await parent.post('/api/pickup-codes/use', { code });

    const logged = lines.join('\n');
    expect(logged).toContain('/api/pickup-codes/lookup/{code}');
    expect(logged).toContain('/invite/…');
    // A code as a path segment or a value anywhere (random ids in the lines are not mistaken for one).
    for (const secret of [code, 'ZZZQ']) {
      expect(logged).not.toMatch(new RegExp(`[/="'\\s:]${secret}(?![A-Za-z0-9])`, 'i'));
    }
  });

  it('carry the request id the client sent, which the answer echoes; one of another shape is replaced', async () => {
    const teacher = await signedIn(server.url, 'teacher_demo');
    const me = await teacher.get('/api/me');
    const sent = await teacher.request('GET', '/api/me', undefined, { 'x-request-id': 'R7K2-9XQ4-ABCD' });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('x-request-id')).toBe('R7K2-9XQ4-ABCD');
    const odd = await fetch(`${server.url}/api/me`, { headers: { 'x-request-id': 'a b<script>' } });
    expect(odd.status).toBe(401);
    const replaced = odd.headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);

    const requests = lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === 'request');
    expect(requests.find((line) => line.request_id === 'R7K2-9XQ4-ABCD')).toMatchObject({
      route: 'GET /api/me',
      status: 200,
      user_id: me.body.id,
      school_id: me.body.schoolId,
      function_name: 'http-me',
    });
    expect(requests.find((line) => line.request_id === replaced)).toMatchObject({ status: 401 });
    expect(requests.some((line) => String(line.request_id).includes('script'))).toBe(false);
  });
});
