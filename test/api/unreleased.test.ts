import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Issue 50, item 1: a child is never recorded as released who was not. Car
 * 112 carries three children; the teacher releases two. Every route that
 * completes a car or a batch answers 409 `{ message, unreleased }` naming the
 * third until the staff confirm (`confirmUnreleased: true`); the completion
 * is then recorded per child, and the report, its CSV and each child's
 * history say the same of each child.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let front: Client;
let back: Client;
let teacher: Client;
let admin: Client;
let sessionId: number;
let names: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  [front, back, teacher, admin] = await Promise.all([
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'back_demo'),
    signedIn(server.url, 'teacher_demo'),
    signedIn(server.url, 'admin_demo'),
  ]);
  names = {};
  for (const client of [front, back, teacher]) {
    const me = (await client.get('/api/me')).body;
    names[me.username] = me.name;
  }
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  // Four scrypt sign-ins on a shared 2-core machine.
}, 120_000);
afterAll(async () => {
  await server?.close();
});

interface Child {
  id: number;
  firstName: string;
  lastName: string;
}
const release = async (child: Child) =>
  expect((await teacher.put(`/api/teacher/students/${child.id}/release`)).status).toBe(200);
const inQueue = async (id: string) =>
  ((await front.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{ id: string }>).some(
    (entry) => entry.id === id,
  );
const fullName = (child: Child) => `${child.firstName} ${child.lastName}`;

describe('completing car 112 with one of its three children not released', () => {
  let car: { id: string; students: Child[] };
  let third: Child;

  beforeAll(async () => {
    car = await queueCar(front, sessionId, '112');
    expect(car.students).toHaveLength(3);
    third = car.students[2] as Child;
    await release(car.students[0] as Child);
    await release(car.students[1] as Child);
  });

  it('answers 409 naming that child on every completing route, and changes nothing', async () => {
    const question = `${fullName(third)} has not been released by a teacher. Complete anyway?`;
    const answers = [
      await front.request('DELETE', `/api/queue/${car.id}`, { reason: 'picked_up' }),
      await front.put(`/api/queue/${car.id}/status`, { status: 'completed' }),
      await front.request('DELETE', `/api/queue/${car.id}`, {
        reason: 'picked_up',
        confirmUnreleased: false,
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe(question);
      expect(answer.body.unreleased).toEqual([
        expect.objectContaining({
          id: third.id,
          firstName: third.firstName,
          lastName: third.lastName,
          vehicleNumber: '112',
          vehicleType: 'car',
          entryId: car.id,
        }),
      ]);
    }
    expect(await inQueue(car.id)).toBe(true);
    // Leaving and removing ask nothing: nobody is recorded as picked up.
    const other = await queueCar(front, sessionId, '101');
    expect((await front.request('DELETE', `/api/queue/${other.id}`, { reason: 'left' })).status).toBe(200);
  });

  it('asks the same of a batch holding it, and the batch keeps loading', async () => {
    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
    expect(batch.currentCount).toBe(1);
    const asked = await back.put(`/api/batches/${batch.id}`, { status: 'completed' });
    expect(asked.status).toBe(409);
    expect(asked.body.unreleased.map((child: Child) => child.id)).toEqual([third.id]);
    const active = (await back.get(`/api/batches/active?sessionId=${sessionId}`)).body as Array<{
      id: number;
    }>;
    expect(active.map((item) => item.id)).toContain(batch.id);
    expect(await inQueue(car.id)).toBe(true);
  });

  it('keeps asking when a refused completion is sent again with its Idempotency-Key (the outbox), and completes once confirmed', async () => {
    const key = randomUUID();
    const body = { reason: 'picked_up' };
    const first = await back.request('DELETE', `/api/queue/${car.id}`, body, { 'Idempotency-Key': key });
    const again = await back.request('DELETE', `/api/queue/${car.id}`, body, { 'Idempotency-Key': key });
    for (const answer of [first, again]) {
      expect(answer.status).toBe(409);
      expect(answer.body.unreleased.map((child: Child) => child.id)).toEqual([third.id]);
    }
    const confirmed = await back.request(
      'DELETE',
      `/api/queue/${car.id}`,
      { ...body, confirmUnreleased: true },
      { 'Idempotency-Key': randomUUID() },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: car.id, status: 'completed' });
    expect(await inQueue(car.id)).toBe(false);
  });

  it('records each child as the report, the CSV and their history all say it: two released by the teacher, the third completed without a release', async () => {
    const report = (await admin.get(`/api/sessions/${sessionId}/report`)).body;
    const pickup = report.pickups.find((item: any) => item.entryId === car.id);
    expect(pickup).toMatchObject({ outcome: 'picked_up', completedBy: { username: 'back_demo' } });

    const csv = await fetch(new URL(`/api/sessions/${sessionId}/report.csv`, server.url), {
      headers: { cookie: admin.cookie ?? '' },
    });
    const [header, ...rows] = (await csv.text())
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = (name: string) => (header as string[]).findIndex((cell) => cell.startsWith(name));

    for (const child of car.students) {
      const inReport = pickup.students.find((student: any) => student.id === child.id);
      const row = rows.find((cells) => cells[column('Student ID')] === String(child.id)) as string[];
      const history = (await teacher.get(`/api/students/${child.id}/pickups`)).body[0];
      const unreleased = child.id === third.id;

      // The report.
      expect(inReport).toMatchObject({
        completedWithoutRelease: unreleased,
        releasedBy: unreleased ? null : { username: 'teacher_demo', name: names.teacher_demo },
      });
      // The CSV: the release by name, or "Completed without a teacher's release".
      expect(row[column('Released By')]).toBe(
        unreleased ? "Completed without a teacher's release" : `${names.teacher_demo} (teacher)`,
      );
      expect(row[column('Completed By')]).toBe(`${names.back_demo} (back queue wrangler)`);
      expect(row[column('Released At')] === '').toBe(unreleased);
      // The child's history.
      expect(history).toMatchObject({
        entryId: car.id,
        completedWithoutRelease: unreleased,
        releasedAt: inReport.releasedAt,
        releasedBy: inReport.releasedBy,
        completedBy: { username: 'back_demo', name: names.back_demo },
      });
    }
  });
});

describe('completing with every child released, or in a morning drop-off', () => {
  it('asks nothing when every child was released', async () => {
    const car = await queueCar(front, sessionId, '102');
    for (const child of car.students) await release(child);
    expect((await front.put(`/api/queue/${car.id}/status`, { status: 'completed' })).status).toBe(200);
  });

  it('asks nothing in a morning drop-off, where nobody is released', async () => {
    expect((await admin.put(`/api/sessions/${sessionId}/end`)).status).toBe(200);
    const dropoff = await front.post('/api/sessions', { ...sessionBody(), type: 'morning_dropoff' });
    expect(dropoff.status).toBe(201);
    const queued = await front.post('/api/queue', {
      sessionId: dropoff.body.id,
      vehicleNumber: '103',
      vehicleType: 'car',
    });
    expect(queued.body.students.length).toBeGreaterThan(0);
    const done = await front.request('DELETE', `/api/queue/${queued.body.id}`, { reason: 'picked_up' });
    expect(done.status).toBe(200);
    const report = (await admin.get(`/api/sessions/${dropoff.body.id}/report`)).body;
    expect(report.pickups[0].students.some((child: any) => child.completedWithoutRelease)).toBe(false);
  });
});
