import { instantIn } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { type Student, students, vehicles } from '@curbside/store';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { parentThroughInvite } from './fixtures';
import { type Client, signedIn, startTestServer } from './server';

/**
 * The shared setup of the ways-home API tests (issue 51): the laptop runtime on the file's
 * tables, the demo school's office and front desk signed in, its roster and buses, and the
 * school's clock. The school's clock is set by faking the server's (the tests and the laptop
 * runtime share a process): the week of Monday 2026-11-23 in Chicago, the demo school's zone.
 * The bindings are live: a test file calls `waysHomeServer()` once at its top, and reads them
 * in its tests.
 */
export let server: Awaited<ReturnType<typeof startTestServer>>;
export let admin: Client;
export let front: Client;
export let roster: Student[];
export let buses: Array<{ id: number; number: string }>;

export const CLOCK = { timeZone: DEMO_TIME_ZONE, changeCutoff: '14:00', changeApproval: 'auto' };

/** Starts the server for this file, and puts the school's clock and settings back after each test. */
export const waysHomeServer = () => {
  beforeAll(async () => {
    server = await startTestServer();
    [admin, front] = await Promise.all([
      signedIn(server.url, 'admin_demo'),
      signedIn(server.url, 'front_demo'),
    ]);
    roster = await students.listBySchool(server.db, 1);
    buses = await vehicles.buses(server.db, 1);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await admin.put('/api/schools/1/settings', {
      ...(await admin.get('/api/schools/1/settings')).body,
      ...CLOCK,
    });
  });
};

export const setClock = async (fields: Partial<typeof CLOCK>) => {
  const settings = (await admin.get('/api/schools/1/settings')).body;
  expect((await admin.put('/api/schools/1/settings', { ...settings, ...fields })).status).toBe(200);
};

/** The server's clock at a wall-clock time of the school (it keeps running from there). */
export const schoolTimeIs = (date: string, time: string, timeZone = DEMO_TIME_ZONE) => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(instantIn(timeZone, date, time));
};
export const WEDNESDAY = '2026-11-25';
export const THURSDAY = '2026-11-26';

let accounts = 0;
/** A new parent following `student`, through an invite. */
export const parentOf = async (student: Student) => {
  accounts += 1;
  return parentThroughInvite(server.url, admin, student.id, `ways_parent_${accounts}`);
};
export const child = (i: number) => roster[i + 20] as Student;

/** A parent's request that `student` walks home on `date`: the change as answered. */
export const askWalking = async (parent: Client, student: Student, date: string) =>
  (await parent.post('/api/dismissal-changes', { studentId: student.id, date, way: { mode: 'walker' } })).body
    .change;

/** A student's entry in a day's plan, as the office reads it. */
export const planOf = async (student: Student, date: string, client = admin) => {
  const answer = await client.get(`/api/dismissal-plan?date=${date}`);
  expect(answer.status).toBe(200);
  return answer.body.students.find((entry: { studentId: number }) => entry.studentId === student.id);
};
