/**
 * Measurements outside the rush: the read units of a queue read with the
 * same active cars before and after the pickups; a warm-up of every rush
 * route; and the read units of add-to-batch with 50 and with 300 cars waiting.
 */
import type { MeterCounters } from '@curbside/store';
import type { BenchClient } from './http';
import { diff, perCall } from './meter-window';
import type { Car } from './school';
import type { BenchContext } from './setup';
import type { AddToBatchProbe, QueueReadProbe } from './types';

const queueCar = async (client: BenchClient, sessionId: number, vehicleNumber: string) => {
  const added = await client.call<{ id: string }>('addToQueue', 'POST', '/api/queue', {
    sessionId,
    vehicleNumber,
    vehicleType: 'car',
  });
  if (added.status !== 201)
    throw new Error(`Probe car ${vehicleNumber}: ${added.status} ${JSON.stringify(added.body)}`);
  return added.body.id;
};

/** GET /api/queue with the probe cars queued: read units per call (no screen is open meanwhile). */
export const queueReadProbe = async (
  ctx: BenchContext,
  sessionId: number,
  completedPickups: number,
): Promise<QueueReadProbe> => {
  ctx.recorder.phase = 'probe';
  const lead = ctx.front[0] as BenchClient;
  const ids: string[] = [];
  for (const car of ctx.school.probeCars) ids.push(await queueCar(lead, sessionId, car.number));
  const before = await ctx.meterNow();
  const calls = 3;
  let activeEntries = 0;
  for (let i = 0; i < calls; i++) {
    const line = await lead.call<unknown[]>('listQueue', 'GET', `/api/queue?sessionId=${sessionId}`);
    activeEntries = Array.isArray(line.body) ? line.body.length : 0;
  }
  const reads = diff(await ctx.meterNow(), before)['http/listQueue'];
  for (const id of ids) await lead.call('removeFromQueue', 'DELETE', `/api/queue/${encodeURIComponent(id)}`);
  return { activeEntries, completedPickups, calls, readUnitsPerCall: perCall(reads, 'ddb.readUnits') };
};

/**
 * Rounds of the warm-up: at least this many, and for at least this long. The
 * JIT of DynamoDB Local (Java) is still compiling for about the first 15 s of
 * load (it used twice its steady CPU in the rush's first window, with the
 * p99 half as high again), and DynamoDB in AWS has no such start.
 */
const WARM_UP_ROUNDS = 3;
const WARM_UP_MS = 20_000;

/**
 * Every rush route over and over on the probe cars, so the rush measures warm
 * code (as warm Lambda containers and a running DynamoDB), not the first JIT
 * compilation of each path.
 */
export const warmUp = async (ctx: BenchContext, sessionId: number) => {
  ctx.recorder.phase = 'probe';
  const [lead] = ctx.front;
  const [loader] = ctx.back;
  const [teacher] = ctx.teachers;
  if (!lead || !loader || !teacher) return;
  const started = performance.now();
  const minimumMs = ctx.options.quick ? 0 : WARM_UP_MS;
  for (let round = 0; round < WARM_UP_ROUNDS || performance.now() - started < minimumMs; round++) {
    const ids: string[] = [];
    for (const car of ctx.school.probeCars) ids.push(await queueCar(lead, sessionId, car.number));
    const batch = await loader.call<{ id: number }>('createBatch', 'POST', '/api/batches', {
      sessionId,
      vehicleType: 'car',
    });
    for (let i = 0; i < 3; i++)
      await loader.call('addToBatch', 'POST', `/api/batches/${batch.body.id}/vehicles`);
    const loaded = await loader.call<Array<{ id: string }>>(
      'batchVehicles',
      'GET',
      `/api/batches/${batch.body.id}/vehicles`,
    );
    const [overflow] = loaded.body;
    if (overflow) {
      const path = `/api/queue/${encodeURIComponent(overflow.id)}`;
      await loader.call('updateQueueEntry', 'PUT', path, { batchId: null, status: 'overflow' });
      await loader.call('removeFromQueue', 'DELETE', path);
    }
    const line = await teacher.call<
      Array<{ id: string; batchId: number | null; students: Array<{ id: number }> }>
    >('listQueue', 'GET', `/api/queue?sessionId=${sessionId}`);
    const walkUp = line.body.find((entry) => entry.batchId === null);
    if (walkUp) {
      // Completed as the screens do once the staff answered "Complete anyway" (no teacher released the child yet).
      await lead.call('setQueueStatus', 'PUT', `/api/queue/${encodeURIComponent(walkUp.id)}/status`, {
        status: 'completed',
        confirmUnreleased: true,
      });
    }
    for (const student of line.body.flatMap((entry) => entry.students).slice(0, 3)) {
      await teacher.call('releaseStudent', 'PUT', `/api/teacher/students/${student.id}/release`);
    }
    const rooms = ctx.school.teachers[0]?.classroomIds.join(',') ?? '';
    await teacher.call(
      'teacherStudents',
      'GET',
      `/api/teacher/students?sessionId=${sessionId}&classroomIds=${rooms}`,
    );
    await loader.call('updateBatch', 'PUT', `/api/batches/${batch.body.id}`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    const rest = await lead.call<Array<{ id: string }>>(
      'listQueue',
      'GET',
      `/api/queue?sessionId=${sessionId}`,
    );
    for (const entry of rest.body) {
      await lead.call('removeFromQueue', 'DELETE', `/api/queue/${encodeURIComponent(entry.id)}`);
    }
  }
};

/** Add-to-batch `presses` times into fresh batches (capacity permitting); the meter of those calls. */
const pressAddToBatch = async (
  ctx: BenchContext,
  sessionId: number,
  presses: number,
): Promise<{ counters: MeterCounters | undefined; calls: number }> => {
  const loader = ctx.back[0] as BenchClient;
  const newBatch = async () =>
    (
      await loader.call<{ id: number }>('createBatch', 'POST', '/api/batches', {
        sessionId,
        vehicleType: 'car',
      })
    ).body.id;
  let batchId = await newBatch();
  const before = await ctx.meterNow();
  let calls = 0;
  for (let i = 0; i < presses; i++) {
    const added = await loader.call('addToBatch', 'POST', `/api/batches/${batchId}/vehicles`);
    calls++;
    if (added.status === 409) batchId = await newBatch();
    else if (added.status !== 200)
      throw new Error(`add-to-batch: ${added.status} ${JSON.stringify(added.body)}`);
  }
  return { counters: diff(await ctx.meterNow(), before)['http/addToBatch'], calls };
};

/**
 * Read units per add-to-batch with 50 and with 300 cars waiting, in a session
 * of its own (no screen open): the waiting line is read a few entries at a
 * time, so the figure should not grow with it. Registered cars are queued
 * first; unregistered numbers make up the count at small scales.
 */
export const addToBatchProbe = async (
  ctx: BenchContext,
  sessionId: number,
): Promise<{ at50: AddToBatchProbe; at300: AddToBatchProbe }> => {
  ctx.recorder.phase = 'probe';
  const lead = ctx.front[0] as BenchClient;
  const numbers = [
    ...ctx.school.cars.map((car: Car) => car.number),
    ...Array.from({ length: 320 }, (_, i) => String(70_001 + i)),
  ];
  let queued = 0;
  let batched = 0;
  const fillTo = async (waiting: number) => {
    while (queued - batched < waiting) await queueCar(lead, sessionId, numbers[queued++] as string);
  };
  const measure = async (waiting: number): Promise<AddToBatchProbe> => {
    await fillTo(waiting);
    const presses = 8;
    const { counters, calls } = await pressAddToBatch(ctx, sessionId, presses);
    batched += presses;
    const operations: Record<string, number> = {};
    for (const [name, value] of Object.entries(counters ?? {})) {
      const match = /^ddb\.(\w+)\.calls$/.exec(name);
      if (match) operations[match[1] as string] = value / Math.max(1, calls);
    }
    return { waiting, calls, readUnitsPerCall: perCall(counters, 'ddb.readUnits'), operations };
  };
  const at50 = await measure(50);
  const at300 = await measure(300);
  return { at50, at300 };
};
