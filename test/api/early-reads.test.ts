import { meter } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * A route's early reads start from its validated input (issue 56): a request
 * whose path its schema refuses is answered 400 without the route's reads,
 * costing no more DynamoDB calls than one whose path is not even a number.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let teacher: Client;
let front: Client;
beforeAll(async () => {
  process.env.CURBSIDE_METER = '1';
  server = await startTestServer();
  teacher = await signedIn(server.url, 'teacher_demo');
  front = await signedIn(server.url, 'front_demo');
});
afterAll(async () => {
  await server?.close();
  delete process.env.CURBSIDE_METER;
});

/** The answer's status and the DynamoDB calls its route made for it. */
const metered = async (label: string, send: () => Promise<{ status: number }>) => {
  meter.reset();
  const { status } = await send();
  return { status, calls: meter.snapshot()[label]?.['ddb.calls'] ?? 0 };
};

describe('a request its schema refuses', () => {
  it.each([
    [
      'a release',
      'http/releaseStudent',
      () => teacher,
      (id: string) => `/api/teacher/students/${id}/release`,
      'put',
    ],
    [
      'an add-to-batch',
      'http/addToBatch',
      () => front,
      (id: string) => `/api/batches/${id}/vehicles`,
      'post',
    ],
  ] as const)(
    'starts none of %s’s reads (400, no more calls than a path that is no number)',
    async (_, label, who, path, method) => {
      const send = (id: string) => () => who()[method](path(id));
      // The first request signs the caller in on this instance: it now knows their school.
      const notANumber = await metered(label, send('abc'));
      expect(notANumber.status).toBe(400);
      const again = await metered(label, send('abc'));
      const negative = await metered(label, send('-3'));
      expect(negative).toEqual({ status: 400, calls: again.calls });
    },
  );
});
