import { DEFAULT_RETENTION_DAYS } from '@curbside/domain';
import { eventSequence, keyedReads, releases } from '@curbside/store';
import { describe, expect, it, vi } from 'vitest';
import { activeQueue, addCar, back, carLineServer, front, server, sessionId } from '../support/car-line';
import { openLive } from '../support/live';
import { signedIn } from '../support/server';

carLineServer();

const restore = (id: string) => front.post(`/api/queue/${id}/restore`);

/** Runs `fn` with the clock (of this process, where the server runs too) `ms` ahead. */
const later = async <T>(ms: number, fn: () => Promise<T>): Promise<T> => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
};

describe('Undo: putting a removed or picked-up car back', () => {
  it('puts a removed car back with its id and its place in the line, and tells every screen', async () => {
    await addCar('101');
    const middle = await addCar('102');
    await addCar('103');
    const screen = await openLive(server.url, { cookie: back.cookie });
    try {
      await back.request('DELETE', `/api/queue/${middle.id}`, { reason: 'removed' });
      const answer = await restore(middle.id);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        id: middle.id,
        vehicleNumber: '102',
        status: 'waiting',
        position: 2,
      });
      expect((await activeQueue()).map((entry) => [entry.id, entry.position])).toEqual([
        [expect.any(String), 1],
        [middle.id, 2],
        [expect.any(String), 3],
      ]);
      const event = await screen.next('VEHICLE_RESTORED', 10_000);
      expect(event.data.entry).toMatchObject({ id: middle.id, status: 'waiting' });
    } finally {
      await screen.close();
    }
  });

  it('puts a car picked up from a loading batch back into that batch, off Recent Pickups', async () => {
    const car = await addCar('104');
    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    await back.post(`/api/batches/${batch.id}/vehicles`);
    await back.request('DELETE', `/api/queue/${car.id}`, { reason: 'picked_up', confirmUnreleased: true });
    expect((await back.get(`/api/batches/${batch.id}/vehicles`)).body).toEqual([]);

    const answer = await restore(car.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: car.id, batchId: batch.id, exitTime: null, status: 'waiting' });
    const inBatch = (await back.get(`/api/batches/${batch.id}/vehicles`)).body;
    expect(inBatch.map((entry: any) => entry.id)).toEqual([car.id]);
    const [loading] = (await back.get(`/api/batches/active?sessionId=${sessionId}`)).body;
    expect(loading.currentCount).toBe(1);
    const recent = (await front.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body;
    expect(recent.map((entry: any) => entry.id)).not.toContain(car.id);
  });

  /** Who of `entry`'s children the session's marks say were picked up, and by which visit. */
  const pickedUp = async (entry: { students: Array<{ id: number; classroomId: number | null }> }) =>
    (
      await releases.ofClassrooms(
        server.db,
        sessionId,
        entry.students.map((student) => student.classroomId),
      )
    ).pickedUp;

  it("takes its children's picked-up marks back with it: the teacher screens no longer say Picked Up", async () => {
    const car = await addCar('112');
    expect(car.students.length).toBeGreaterThan(0);
    await back.request('DELETE', `/api/queue/${car.id}`, { reason: 'picked_up', confirmUnreleased: true });
    const before = await pickedUp(car);
    for (const student of car.students) expect(before.has(student.id), `${student.id} picked up`).toBe(true);
    // The parents' wait estimate counts the pickup until it is taken back (the session's latest pickups).
    const latest = async () =>
      (
        await keyedReads.run(
          server.db,
          eventSequence.keyedLatestPickups(sessionId, server.connectionsDb.table),
        )
      ).map((p) => p.id);
    expect(await latest()).toContain(car.id.slice(-3));
    expect((await restore(car.id)).status).toBe(200);
    const after = await pickedUp(car);
    for (const student of car.students)
      expect(after.has(student.id), `${student.id} not picked up`).toBe(false);
    expect(await latest()).not.toContain(car.id.slice(-3));
  });

  it('marks the children of a car picked up from its batch, from its details or from the line, and takes them back', async () => {
    for (const [number, pickUp] of [
      [
        '114',
        (id: string) => back.put(`/api/queue/${id}/status`, { status: 'completed', confirmUnreleased: true }),
      ],
      [
        '115',
        (id: string) =>
          back.request('DELETE', `/api/queue/${id}`, { reason: 'picked_up', confirmUnreleased: true }),
      ],
    ] as const) {
      const car = await addCar(number);
      expect(car.students.length).toBeGreaterThan(0);
      const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
      expect((await back.put(`/api/queue/${car.id}`, { batchId: batch.id, status: 'waiting' })).status).toBe(
        200,
      );
      expect((await pickUp(car.id)).status).toBe(200);
      const before = await pickedUp(car);
      for (const student of car.students)
        expect(before.has(student.id), `${student.id} picked up`).toBe(true);
      expect((await restore(car.id)).status).toBe(200);
      const after = await pickedUp(car);
      for (const student of car.students)
        expect(after.has(student.id), `${student.id} not picked up`).toBe(false);
    }
  });

  it("keeps a child's mark a later pickup wrote (another car took the child meanwhile), and takes back the rest", async () => {
    const car = await addCar('113');
    expect(car.students.length).toBeGreaterThan(0);
    await back.request('DELETE', `/api/queue/${car.id}`, { reason: 'picked_up', confirmUnreleased: true });
    const [taken, ...rest] = car.students;
    // Another visit picked up the first child since (its mark names that visit now).
    await releases.pickUp(
      server.db,
      { schoolId: 1, sessionId },
      [{ id: `${sessionId}-car-999-1-abc`, vehicleNumber: '999', vehicleType: 'car', students: [taken] }],
      {
        actor: { id: 1, username: 'front_demo', role: 'front_queue_wrangler' },
        retentionDays: DEFAULT_RETENTION_DAYS,
      },
    );
    expect((await restore(car.id)).status).toBe(200);
    const after = await pickedUp(car);
    expect(after.has(taken.id), 'the later pickup stays').toBe(true);
    for (const student of rest) expect(after.has(student.id), `${student.id} not picked up`).toBe(false);
  });

  it('records the Undo in the dismissal record', async () => {
    const car = await addCar('105');
    await back.request('DELETE', `/api/queue/${car.id}`, { reason: 'left' });
    await restore(car.id);
    const admin = await signedIn(server.url, 'admin_demo');
    const events = (await admin.get(`/api/sessions/${sessionId}/events`)).body.items as any[];
    expect(
      events.filter((event) => event.entries.some((e: any) => e.id === car.id)).map((e) => e.kind),
    ).toEqual(['vehicle_queued', 'left', 'restored']);
  });

  it('refuses after 60 seconds with 409', async () => {
    const car = await addCar('106');
    await back.request('DELETE', `/api/queue/${car.id}`, { reason: 'picked_up', confirmUnreleased: true });
    const answer = await later(61_000, () => restore(car.id));
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      message: 'Vehicle 106 can no longer be put back: Undo is possible for 60 seconds',
    });
    expect(await activeQueue()).toEqual([]);
  });

  it('refuses once the car was queued again, keeping the new visit', async () => {
    const car = await addCar('107');
    await back.request('DELETE', `/api/queue/${car.id}`, { reason: 'removed' });
    const again = await addCar('107');
    const answer = await restore(car.id);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'Vehicle 107 was queued again and cannot be put back' });
    expect((await activeQueue()).map((entry) => entry.id)).toEqual([again.id]);
  });

  it('refuses a car still in the queue, and an id of no visit', async () => {
    const car = await addCar('108');
    expect((await restore(car.id)).status).toBe(409);
    expect((await restore(`${sessionId}-car-999-1700000000000-abc`)).status).toBe(404);
  });
});
