import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { channels } from '@curbside/api';
import { dateIn, type School, schoolClockOf } from '@curbside/domain';
import { classrooms, connections, meter, parentLinks, schools, students, vehicles } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDayChanges, seedWaysHome } from '../bench/ways';
import { createStaff, demoStudentsOf, sessionBody } from '../support/fixtures';
import { openLive } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';
import { newVehicle } from '../support/vehicles';

/**
 * DynamoDB calls and sequential round trips per car-line request (issue 54,
 * DESIGN.md's "Calls per request"), counted by the meter on a school with 30
 * classrooms, 40 staff screens (6 on the whole line, 34 teachers narrowed to
 * classrooms) and 200 parents connected: the counts must not grow with the
 * screens, classrooms or parents that hear of a change.
 *
 * The connections are real sockets of the laptop runtime, opened anonymous and
 * then given their channels straight in the connection table (as `$connect` and
 * a subscribe would write them), so every post reaches an open socket.
 */
const CHANGE_CALLS = 6;
const CHANGE_ROUND_TRIPS = 4;
const POLL_CALLS = 2;

/**
 * What each route makes today, at most: DynamoDB calls and sequential round
 * trips. Before issue 54's fan-out (one Query of the connection table per
 * channel: the line, each concerned classroom, each parent) a family's car
 * queued made 28 calls in 17 round trips here. The routes still above
 * DESIGN.md's budget (at most 6 calls and 4 round trips a change, 2 calls a
 * poll) are listed with their figure; lower one when a change brings it down.
 */
/**
 * Calls are counted exactly; round trips depend on how the calls of a request
 * overlapped this time (two started together may or may not be in flight at
 * once on a busy machine), so a figure of today may be one more.
 */
const ROUND_TRIP_SLACK = 1;
const NOW: Record<string, { calls: number; roundTrips: number }> = {};

let server: Awaited<ReturnType<typeof startTestServer>>;
let front: Client;
let teacher: Client;
let parent: Client;
let sessionId: number;
/** The demo school's students, the 200 parents' children (parent i follows `kids[i % kids.length]`). */
let kids: number[] = [];
const sockets: Array<Awaited<ReturnType<typeof openLive>>> = [];

/** Opens `count` anonymous sockets and answers their connection ids (the public channel's members). */
const openSockets = async (count: number): Promise<string[]> => {
  for (let i = 0; i < count; i++) sockets.push(await openLive(server.url));
  return connections.inChannel(server.connectionsDb, channels.public());
};

beforeAll(async () => {
  process.env.CURBSIDE_METER = '1';
  server = await startTestServer();
  [front, teacher, parent] = await Promise.all([
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'teacher_demo'),
    signedIn(server.url, 'parent_demo'),
  ]);
  const active = (await front.get('/api/sessions/active')).body;
  if (active) await front.put(`/api/sessions/${active.id}/end`);
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;

  // 30 classrooms: the demo school's 6 and 24 more.
  const rooms = (await classrooms.listBySchool(server.db, 1)).map((room) => room.id);
  for (let i = rooms.length; i < 30; i++) {
    rooms.push(
      (
        await classrooms.create(server.db, {
          schoolId: 1,
          name: `Room ${100 + i}`,
          grade: '3',
          teacherId: null,
        })
      ).id,
    );
  }
  // 200 parents, each linked to one of the school's students.
  kids = (await students.listBySchool(server.db, 1)).map((student) => student.id);
  const parentIds: number[] = [];
  for (let i = 0; i < 200; i++) {
    const user = await createStaff(server.db, {
      username: `calls_parent_${i}`,
      role: 'parent',
      schoolId: null,
      districtId: null,
    });
    await parentLinks.link(server.db, user.id, 1, kids[i % kids.length] as number);
    parentIds.push(user.id);
  }
  const ids = await openSockets(240);
  expect(ids).toHaveLength(240);
  const connectedAt = new Date().toISOString();
  await Promise.all(
    ids.map((connectionId, i) => {
      const staff = [channels.public(), channels.staff(1)];
      const joined =
        i < 6
          ? [...staff, channels.line(1)]
          : i < 40
            ? [...staff, channels.narrowed(1), channels.classroom(1, rooms[i % rooms.length] as number)]
            : [channels.public(), channels.parent(parentIds[i - 40] as number)];
      const userId = i < 40 ? null : (parentIds[i - 40] as number);
      return connections.put(server.connectionsDb, {
        connectionId,
        channels: joined,
        userId,
        connectedAt,
        schools: [1],
        ...(i < 40 ? {} : { children: [{ schoolId: 1, studentId: kids[(i - 40) % kids.length] as number }] }),
      });
    }),
  );
}, 240_000);

afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await server?.close();
  delete process.env.CURBSIDE_METER;
});

/** The request as a staff screen sends it: with an Idempotency-Key when it changes something. */
const send = (client: Client, method: string, path: string, body?: unknown) =>
  method === 'GET'
    ? client.request(method, path)
    : client.request(method, path, body ?? {}, { 'idempotency-key': randomUUID() });

interface Counted {
  calls: number;
  roundTrips: number;
  /** The read units AWS would bill for the request's calls (the meter's `ddb.readUnits`). */
  readUnits: number;
  /** Of which its BatchGetItems' (the reads by key). */
  keyedReadUnits: number;
  /** The school's connection rows its fan-out received (`connections.ofSchool`, h54zf). */
  schoolRows: number;
}

const figures: Record<string, Counted> = {};

/** A request's counts from the meter's snapshot of its handler. */
const countedOf = (of: Record<string, number>): Counted => ({
  calls: of['ddb.calls'] ?? 0,
  roundTrips: of['ddb.roundTrips'] ?? 0,
  readUnits: of['ddb.readUnits'] ?? 0,
  keyedReadUnits: of['ddb.BatchGetItem.units'] ?? 0,
  schoolRows: of['live.schoolRows'] ?? 0,
});

/**
 * Prepares a request (unmetered), runs it with the meter from zero and notes its
 * handler's DynamoDB calls and sequential round trips. Each route is sent once
 * before it is measured, as on a warm instance that has served this screen.
 * A car leaving the line tells the parents of the cars behind it at most once per
 * 15 s per session (`tellLineMoved`: one Query of the line, in the benchmark's average);
 * when that throttled read fell on the measured request, the request is measured
 * once more, within the 15 s, so the figure is the change's own whatever the clock.
 */
const measure = async <T>(
  route: string,
  prepare: () => Promise<T>,
  act: (prepared: T) => Promise<{ status: number }>,
  label = route,
): Promise<Counted> => {
  for (let run = 0; ; run++) {
    const prepared = await prepare();
    meter.reset();
    const answer = await act(prepared);
    expect(answer.status, `${route}: ${JSON.stringify((answer as { body?: unknown }).body)}`).toBeLessThan(
      300,
    );
    if (run === 0) continue;
    const of = meter.snapshot()[`http/${route}`] ?? {};
    expect(of['lambda.invocations'], route).toBe(1);
    if (of['parents.lineMoved'] && run === 1) continue;
    const counted = countedOf(of);
    if (process.env.CALLS_PER_REQUEST_REPORT)
      Object.assign(counted, {
        operations: Object.fromEntries(Object.entries(of).filter(([name]) => /^ddb\.\w+\.calls$/.test(name))),
      });
    figures[label] = counted;
    return counted;
  }
};

let cars = 200;
/** Queues a car of its own (a new number each time, no details on file) and answers its entry's id. */
const queued = async () =>
  (await send(front, 'POST', '/api/queue', { sessionId, vehicleNumber: String(cars++), vehicleType: 'car' }))
    .body.id as string;
const at = (entryId: string) => `/api/queue/${encodeURIComponent(entryId)}`;
const nothing = async () => undefined;
const OFFICE = { userId: 1, username: 'admin_demo', role: 'school_admin' } as const;
const newBatch = async () =>
  (await send(front, 'POST', '/api/batches', { sessionId, vehicleType: 'car' })).body.id as number;
let doors = 1;
/** A new alert of its own (raising one at the same place again is the panel's toggle: it dismisses). */
const alertAt = () => ({ sessionId, type: 'help', location: `Door ${doors++}` });
const raised = async () => {
  const answer = await send(front, 'POST', '/api/alerts', alertAt());
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.alert.id as number;
};

let releaseRoom = 0;
/** A classroom of its own with `count` new children: its id and theirs. */
const roomOf = async (count: number) => {
  const { id } = await classrooms.create(server.db, {
    schoolId: 1,
    name: `Release room ${releaseRoom++}`,
    grade: '3',
    teacherId: null,
  });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const kid = await students.create(server.db, {
      schoolId: 1,
      firstName: `Kid ${i}`,
      lastName: `Room ${releaseRoom}`,
      grade: '3',
      classroomId: id,
    });
    ids.push(kid.id);
  }
  return { id, ids };
};
/** A classroom of its own whose `count` children go home by `way` today (as the benchmark seeds the ways). */
const roomGoing = (bus: { id: number }, count: number, way: 'bus' | 'walker') => async () => {
  const { id, ids } = await roomOf(count);
  await seedWaysHome(server.db, {
    schoolId: 1,
    admin: OFFICE,
    buses: [bus],
    busRiders: way === 'bus' ? ids : [],
    walkers: way === 'walker' ? ids : [],
  });
  return id;
};
/** A release's press: the path it is sent to and the classroom it names. */
interface Press {
  path: string;
  classroomId: number;
}
let newBuses = 0;
/**
 * A press for the riders of a new bus (its riders item and upcoming item, which
 * a bus's press reads, hold only theirs): a classroom of its own whose first
 * `riders` children ride it today and the next `walkers` walk.
 */
const busPress =
  (riders: number, walkers = 0) =>
  async (): Promise<Press> => {
    const bus = await vehicles.create(server.db, newVehicle(1, `RN${newBuses++}`, 'bus'));
    const { id, ids } = await roomOf(riders + walkers);
    await seedWaysHome(server.db, {
      schoolId: 1,
      admin: OFFICE,
      buses: [bus],
      busRiders: ids.slice(0, riders),
      walkers: ids.slice(riders),
    });
    return { path: `/api/buses/${bus.id}/release`, classroomId: id };
  };
/** A press for a classroom of its own whose `count` children walk today. */
const walkerPress = (bus: { id: number }, count: number) => async (): Promise<Press> => ({
  path: '/api/walkers/release',
  classroomId: await roomGoing(bus, count, 'walker')(),
});
/** A teacher's press of a release by way home for one classroom, which releases its `count` children. */
const pressed = (path: string, count: number) => async (classroomId: number) => {
  const answer = await send(teacher, 'POST', path, { classroomIds: [classroomId] });
  expect(answer.body.released, `${path}: every child of the classroom`).toHaveLength(count);
  return answer;
};
const pressedAt =
  (count: number) =>
  ({ path, classroomId }: Press) =>
    pressed(path, count)(classroomId);

/** At most DESIGN.md's budget, or the route's figure of today where that is still above it (`NOW`). */
const expectAtMost = (
  route: string,
  { calls, roundTrips }: Counted,
  callBudget: number,
  tripBudget: number,
) => {
  const now = NOW[route] ?? { calls: 0, roundTrips: 0 };
  expect.soft(calls, `${route}: DynamoDB calls`).toBeLessThanOrEqual(Math.max(callBudget, now.calls));
  expect
    .soft(roundTrips, `${route}: sequential round trips`)
    .toBeLessThanOrEqual(Math.max(tripBudget, now.roundTrips + ROUND_TRIP_SLACK));
};
const expectChange = (route: string, counted: Counted, callBudget = CHANGE_CALLS) =>
  expectAtMost(route, counted, callBudget, CHANGE_ROUND_TRIPS);

describe('calls per car-line request, with 30 classrooms, 40 staff screens and 200 parents connected', () => {
  afterAll(() => {
    if (process.env.CALLS_PER_REQUEST_REPORT) {
      writeFileSync(process.env.CALLS_PER_REQUEST_REPORT, `${JSON.stringify(figures, null, 2)}\n`);
    }
  });

  it('queueing a car, and each change of an entry, is at most 6 calls in at most 4 round trips', async () => {
    // Cars 101–124 of the demo school carry its students (some of the 200 parents' children).
    let family = 101;
    const car = await measure('addToQueue', nothing, () =>
      send(front, 'POST', '/api/queue', { sessionId, vehicleNumber: String(family++), vehicleType: 'car' }),
    );
    expectChange('addToQueue', car);
    // The sign-in with the session, the vehicle, its earlier visit and its slot in the line; its children;
    // the entry with its event and the key's claim holding the answer, beside the place in line, the
    // event's number and the school's connections (h54ze: 4 round trips before, those three after it).
    expect.soft(car.roundTrips, 'addToQueue: sequential round trips').toBeLessThanOrEqual(3);
    // A car back after its pickup or its removal: its earlier visit read by key beside the sign-in (h54zb).
    const queueCar = (number: string) =>
      send(front, 'POST', '/api/queue', { sessionId, vehicleNumber: number, vehicleType: 'car' });
    for (const [end, label] of [
      [
        { method: 'PUT', path: '/status', body: { status: 'completed', confirmUnreleased: true } },
        'picked up',
      ],
      [{ method: 'DELETE', path: '', body: { reason: 'removed' } }, 'removed'],
    ] as const) {
      const back = await measure(
        'addToQueue',
        async () => {
          const number = String(family++);
          const first = await queueCar(number);
          expect(first.status, JSON.stringify(first.body)).toBe(201);
          const ended = await send(front, end.method, `${at(first.body.id)}${end.path}`, end.body);
          expect(ended.status, JSON.stringify(ended.body)).toBe(200);
          return number;
        },
        queueCar,
        `addToQueue of a car back after it was ${label}`,
      );
      expectChange('addToQueue', back);
    }
    // A bus with riders: one call over the budget, its riders' item read once the sign-in named the bus
    // (ADR 0027, "Still to do"); 8 calls before its earlier visit was read by key. 4 round trips since the
    // place in line, the number and the connections are read beside its transaction (h54ze; 5 before).
    let buses = 0;
    const bus = await measure(
      'addToQueue',
      async () =>
        (
          await vehicles.create(
            server.db,
            newVehicle(1, `Q${buses++}`, 'bus', { studentIds: kids.slice(0, 3) }),
          )
        ).number,
      (number) => send(front, 'POST', '/api/queue', { sessionId, vehicleNumber: number, vehicleType: 'bus' }),
      'addToQueue of a bus',
    );
    expect.soft(bus.calls, 'addToQueue of a bus: DynamoDB calls').toBeLessThanOrEqual(CHANGE_CALLS + 1);
    expect
      .soft(bus.roundTrips, 'addToQueue of a bus: sequential round trips')
      .toBeLessThanOrEqual(CHANGE_ROUND_TRIPS);
    const familyEntry = async () =>
      (
        await send(front, 'POST', '/api/queue', {
          sessionId,
          vehicleNumber: String(family++),
          vehicleType: 'car',
        })
      ).body.id as string;
    expectChange(
      'setQueueStatus',
      await measure('setQueueStatus', familyEntry, (id) =>
        send(front, 'PUT', `${at(id)}/status`, { status: 'ready' }),
      ),
    );
    expectChange(
      'updateQueueEntry',
      await measure('updateQueueEntry', familyEntry, (id) =>
        send(front, 'PUT', at(id), { batchId: null, status: 'overflow' }),
      ),
    );
    expectChange(
      'removeFromQueue',
      await measure('removeFromQueue', familyEntry, (id) =>
        send(front, 'DELETE', at(id), { reason: 'removed' }),
      ),
    );
    /** Undo of a family car's visit that `end` ended (its figure under `label`). */
    const undone = (end: (id: string) => Promise<unknown>, label?: string) =>
      measure(
        'restoreQueueEntry',
        async () => {
          const id = await familyEntry();
          await end(id);
          return id;
        },
        (id) => send(front, 'POST', `${at(id)}/restore`),
        label,
      );
    expectChange(
      'restoreQueueEntry',
      await undone((id) => send(front, 'DELETE', at(id), { reason: 'removed' })),
    );
    // Undo of a family car's pickup: its children's picked-up marks are taken back too.
    expectChange(
      'restoreQueueEntry',
      await undone(async (id) => {
        const done = await send(front, 'PUT', `${at(id)}/status`, {
          status: 'completed',
          confirmUnreleased: true,
        });
        expect(done.status, JSON.stringify(done.body)).toBe(200);
      }, 'restoreQueueEntry of a pickup'),
    );
  });

  it('batches: a new one, a car added, and completing one of N cars in at most 6 + N/25 calls', async () => {
    const created = await measure('createBatch', nothing, () =>
      send(front, 'POST', '/api/batches', { sessionId, vehicleType: 'car' }),
    );
    expectChange('createBatch', created);
    // The sign-in with the session and the school; the batch's number; the batch with its event and the
    // key's claim holding the answer, beside the event's number and the school's connections (h54ze;
    // 6 / 4 before: those two and the answer's UpdateItem after the transaction).
    expect.soft(created.calls, 'createBatch: DynamoDB calls').toBeLessThanOrEqual(5);
    expect.soft(created.roundTrips, 'createBatch: sequential round trips').toBeLessThanOrEqual(3);
    // Right after the office saved the school's settings (this process forgets the school's record, as it
    // does once a minute): the school read beside the sign-in for the batch's capacity serves the record too.
    const office = await signedIn(server.url, 'admin_demo');
    const settings = (await office.get('/api/schools/1/settings')).body;
    const saved = async () => {
      expect((await office.put('/api/schools/1/settings', settings)).status).toBe(200);
    };
    expectChange(
      'createBatch',
      await measure(
        'createBatch',
        saved,
        () => send(front, 'POST', '/api/batches', { sessionId, vehicleType: 'car' }),
        'createBatch after the settings saved',
      ),
    );
    const added = await measure(
      'addToBatch',
      async () => {
        await queued();
        return newBatch();
      },
      (batchId) => send(front, 'POST', `/api/batches/${batchId}/vehicles`),
    );
    expectChange('addToBatch', added);
    // The batch with one more is the answer, kept in the key's claim by the entry's transaction (h54ze):
    // no UpdateItem after it (6 calls before; the number and the connections stay after the commit).
    expect.soft(added.calls, 'addToBatch: DynamoDB calls').toBeLessThanOrEqual(5);
    const cars = 5;
    /** Completing a new batch of `cars` cars, each put in by `load` (`label`: the figure's name). */
    const completing = (load: (batchId: number, car: number) => Promise<void>, label?: string) =>
      measure(
        'updateBatch',
        async () => {
          const batchId = await newBatch();
          for (let i = 0; i < cars; i++) await load(batchId, i);
          return batchId;
        },
        (batchId) =>
          send(front, 'PUT', `/api/batches/${batchId}`, { status: 'completed', confirmUnreleased: true }),
        label,
      );
    expectChange(
      'updateBatch',
      await completing(async (batchId) => {
        await queued();
        await send(front, 'POST', `/api/batches/${batchId}/vehicles`);
      }),
      CHANGE_CALLS + Math.ceil(cars / 25),
    );
    // As the benchmark's loaders complete them: cars carrying children, their marks read and written with the batch.
    const children = kids.slice(30, 30 + 2 * cars);
    expect(children).toHaveLength(2 * cars);
    for (let i = 0; i < cars; i++) {
      await vehicles.create(
        server.db,
        newVehicle(1, `FAM${i}`, 'car', { studentIds: children.slice(2 * i, 2 * i + 2) }),
      );
    }
    expectChange(
      'updateBatch',
      await completing(async (batchId, i) => {
        const answer = await send(front, 'POST', '/api/queue', {
          sessionId,
          vehicleNumber: `FAM${i}`,
          vehicleType: 'car',
          queueAnyway: true,
        });
        expect(answer.body.students, `car FAM${i}: ${JSON.stringify(answer.body)}`).toHaveLength(2);
        // This car into the batch (add-to-batch would take the line's first car).
        const placed = await send(front, 'PUT', at(answer.body.id), { batchId, status: 'waiting' });
        expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      }, 'updateBatch (5 cars of 2 children)'),
      CHANGE_CALLS + Math.ceil(cars / 25),
    );

    // Undo of a car picked up from a batch: the batch read once, after the sign-in (the ended visit names it).
    let undoCars = 0;
    /** A car of two children (a new number each time) queued and put in a new batch: the batch's id and its entry's. */
    const familyInBatch = async () => {
      const number = `UNDO${undoCars}`;
      const offset = (2 * undoCars++) % 16;
      await vehicles.create(
        server.db,
        newVehicle(1, number, 'car', { studentIds: kids.slice(40 + offset, 42 + offset) }),
      );
      const car = await send(front, 'POST', '/api/queue', {
        sessionId,
        vehicleNumber: number,
        vehicleType: 'car',
        queueAnyway: true,
      });
      expect(car.status, JSON.stringify(car.body)).toBe(201);
      const batchId = await newBatch();
      const placed = await send(front, 'PUT', at(car.body.id), { batchId, status: 'waiting' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return { batchId, entryId: car.body.id as string };
    };
    const pickedUpFromBatch = async () => {
      const { batchId, entryId } = await familyInBatch();
      const done = await send(front, 'PUT', `${at(entryId)}/status`, {
        status: 'completed',
        confirmUnreleased: true,
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      return { batchId, entryId };
    };
    // A car of two children picked up from its batch (in the rush: a walk-up car the back staff had
    // loaded), from its details or from the line (h54zd): the children's picked-up marks go with the
    // completion's transaction, not in a BatchWriteItem after it (5 round trips, 8 calls before). The
    // seventh call is the batch's new count, read beside the fan-out for the screens' event.
    for (const [route, pickUp] of [
      [
        'setQueueStatus',
        (entryId: string) =>
          send(front, 'PUT', `${at(entryId)}/status`, { status: 'completed', confirmUnreleased: true }),
      ],
      [
        'removeFromQueue',
        (entryId: string) =>
          send(front, 'DELETE', at(entryId), { reason: 'picked_up', confirmUnreleased: true }),
      ],
    ] as const) {
      expectChange(
        route,
        await measure(route, familyInBatch, ({ entryId }) => pickUp(entryId), `${route} of a car in a batch`),
        CHANGE_CALLS + 1,
      );
    }
    const restored = async (entryId: string) => {
      const answer = await send(front, 'POST', `${at(entryId)}/restore`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer;
    };
    /** Undo of a car picked up from a batch; `closed`: the batch completed meanwhile (the car back in the line). */
    const undoneFromBatch = (closed: boolean, label: string) =>
      measure(
        'restoreQueueEntry',
        async () => {
          const { batchId, entryId } = await pickedUpFromBatch();
          if (closed) {
            const other = await queued();
            expect((await send(front, 'PUT', at(other), { batchId, status: 'waiting' })).status).toBe(200);
            const completed = await send(front, 'PUT', `/api/batches/${batchId}`, {
              status: 'completed',
              confirmUnreleased: true,
            });
            expect(completed.status, JSON.stringify(completed.body)).toBe(200);
          }
          return entryId;
        },
        async (entryId) => {
          const answer = await restored(entryId);
          expect(answer.body.batchId === null, closed ? 'waiting for a batch' : 'back in its batch').toBe(
            closed,
          );
          return answer;
        },
        label,
      );
    expectChange(
      'restoreQueueEntry',
      await undoneFromBatch(false, 'restoreQueueEntry of a pickup from a batch, back in it'),
    );
    expectChange(
      'restoreQueueEntry',
      await undoneFromBatch(true, 'restoreQueueEntry of a pickup from a completed batch'),
    );
    // The car put back keeps its children among the batch's riders: completing the batch reads their
    // release marks with the entries, as for any car put in a batch (no read of them after).
    expectChange(
      'updateBatch',
      await measure(
        'updateBatch',
        async () => {
          const { batchId, entryId } = await pickedUpFromBatch();
          await restored(entryId);
          return batchId;
        },
        (batchId) =>
          send(front, 'PUT', `/api/batches/${batchId}`, { status: 'completed', confirmUnreleased: true }),
        'updateBatch after an Undo put a car back in it',
      ),
    );
  });

  it("a car's children picked up: the same calls for a bus of 30 riders as for a car of one child", async () => {
    // Every rider's parents are connected (parent i follows kids[i % kids.length]).
    const riders = kids.slice(0, 30);
    expect(riders).toHaveLength(30);
    const counted: Counted[] = [];
    for (const [type, number, children] of [
      ['car', 'ONE1', riders.slice(0, 1)],
      ['bus', 'B30', riders],
    ] as const) {
      await vehicles.create(server.db, newVehicle(1, number, type, { studentIds: [...children] }));
      let visit = 0;
      counted.push(
        await measure(
          'setQueueStatus',
          async () => {
            // The same vehicle again each time: a new visit once the last one was picked up.
            const answer = await send(front, 'POST', '/api/queue', {
              sessionId,
              vehicleNumber: number,
              vehicleType: type,
              queueAnyway: true,
            });
            expect(answer.status, JSON.stringify(answer.body)).toBe(201);
            expect(answer.body.students, `${type} ${number}, visit ${visit++}`).toHaveLength(children.length);
            return answer.body.id as string;
          },
          (id) => send(front, 'PUT', `${at(id)}/status`, { status: 'completed', confirmUnreleased: true }),
          `setQueueStatus (${type} of ${children.length})`,
        ),
      );
    }
    const [car, bus] = counted as [Counted, Counted];
    expectChange('setQueueStatus', car);
    // The parents' part is the same whatever the children, and so is the
    // pickup's own marks: in the completion's transaction (up to 90 children;
    // beyond, 25 per BatchWriteItem after it).
    expect(bus.calls, 'a bus of 30 riders picked up: DynamoDB calls').toBe(car.calls);
    expect(bus.roundTrips, 'a bus of 30 riders picked up: round trips').toBeLessThanOrEqual(
      car.roundTrips + ROUND_TRIP_SLACK,
    );
  });

  it("a change's fan-out receives the staff's rows and its own children's parents' pages, not the school's every parent", async () => {
    // 40 staff screens; parent i follows kids[i % kids.length], so a child has this many parents' pages open.
    const staffRows = 40;
    const pagesOf = (kid: number) =>
      Array.from({ length: 200 }, (_, i) => kids[i % kids.length]).filter((id) => id === kid).length;
    const [child, other] = [kids[7] as number, kids[8] as number];
    expect(pagesOf(child)).toBeGreaterThan(0);
    let made = 0;
    /** A car of its own carrying `kid`, as the benchmark's family cars are: its number. */
    const carOf = async (kid: number) => {
      const number = `ROWS${made++}`;
      await vehicles.create(server.db, newVehicle(1, number, 'car', { studentIds: [kid] }));
      return number;
    };
    const queuedCar = await measure(
      'addToQueue',
      () => carOf(child),
      (vehicleNumber) => send(front, 'POST', '/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' }),
      'addToQueue (rows of the fan-out)',
    );
    expect(queuedCar.schoolRows, 'a car of one child queued: rows received').toBe(staffRows + pagesOf(child));
    const placed = await measure(
      'updateQueueEntry',
      async () => {
        const vehicleNumber = await carOf(other);
        const answer = await send(front, 'POST', '/api/queue', {
          sessionId,
          vehicleNumber,
          vehicleType: 'car',
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        return { batchId: await newBatch(), entryId: answer.body.id as string };
      },
      ({ batchId, entryId }) => send(front, 'PUT', at(entryId), { batchId, status: 'waiting' }),
      'updateQueueEntry into a batch (rows of the fan-out)',
    );
    expect(placed.schoolRows, 'a car of one child put in a batch: rows received').toBe(
      staffRows + pagesOf(other),
    );
    // The batch's next car, whichever is first in line: a car of at most three children.
    const mostPages = Math.max(...kids.map(pagesOf));
    const batched = await measure(
      'addToBatch',
      async () => {
        await queued();
        return newBatch();
      },
      (batchId) => send(front, 'POST', `/api/batches/${batchId}/vehicles`),
      'addToBatch (rows of the fan-out)',
    );
    expect(batched.schoolRows, 'a car put in a batch: rows received').toBeLessThanOrEqual(
      staffRows + 3 * mostPages,
    );
    const empty = await measure(
      'createBatch',
      nothing,
      () => send(front, 'POST', '/api/batches', { sessionId, vehicleType: 'car' }),
      'createBatch (rows of the fan-out)',
    );
    expect(empty.schoolRows, 'an empty batch: the staff rows only').toBe(staffRows);
    const alert = await measure(
      'createAlert',
      nothing,
      () => send(front, 'POST', '/api/alerts', alertAt()),
      'createAlert (rows)',
    );
    expect(alert.schoolRows, 'an alert: the staff rows only').toBe(staffRows);
    // Read units are those of every row as before (DynamoDB bills a Query by what it reads, before its filter).
  });

  it("a teacher's release and an alert's raise, acknowledgement and dismissal", async () => {
    const room12 = await demoStudentsOf(server.db, 'Room 12');
    let next = 0;
    const release = await measure(
      'releaseStudent',
      async () => room12[next++]?.id as number,
      (studentId) => send(teacher, 'PUT', `/api/teacher/students/${studentId}/release`),
    );
    expectChange('releaseStudent', release);
    // The sign-in with the student and the session; then the mark with its event and the key's claim
    // holding the answer, beside the event's number and the school's connections (h54ze; 5 / 3 before:
    // the number, the connections and the answer's UpdateItem after the transaction).
    expect.soft(release.calls, 'releaseStudent: DynamoDB calls').toBeLessThanOrEqual(4);
    expect.soft(release.roundTrips, 'releaseStudent: sequential round trips').toBeLessThanOrEqual(2);
    expectChange(
      'createAlert',
      await measure('createAlert', nothing, () => send(front, 'POST', '/api/alerts', alertAt())),
    );
    expectChange(
      'acknowledgeAlert',
      await measure('acknowledgeAlert', raised, (id) => send(front, 'POST', `/api/alerts/${id}/acknowledge`)),
    );
    expectChange(
      'dismissAlert',
      await measure('dismissAlert', raised, (id) => send(front, 'PUT', `/api/alerts/${id}/dismiss`)),
    );
  });

  it("a bus's riders and a classroom's walkers released in one press: 6 + N/25 calls, the same for 30 children as for one", async () => {
    const bus = await vehicles.create(server.db, newVehicle(1, 'R30', 'bus'));
    for (const [route, path, way] of [
      ['releaseBusRiders', `/api/buses/${bus.id}/release`, 'bus'],
      ['releaseWalkers', '/api/walkers/release', 'walker'],
    ] as const) {
      const [one, thirty] = [
        await measure(route, roomGoing(bus, 1, way), pressed(path, 1), `${route} (1 child)`),
        await measure(route, roomGoing(bus, 30, way), pressed(path, 30), `${route} (30 children)`),
      ];
      expectChange(route, thirty, CHANGE_CALLS + Math.ceil(30 / 25));
      // The answer in the key's claim, written by the release's transaction: no UpdateItem after it (h54k).
      expect(one.calls, `${route}: DynamoDB calls with its Idempotency-Key`).toBeLessThanOrEqual(
        CHANGE_CALLS,
      );
      expect(thirty.calls, `${route}: 30 children, DynamoDB calls`).toBe(one.calls);
      expect(thirty.roundTrips, `${route}: 30 children, round trips`).toBeLessThanOrEqual(
        one.roundTrips + ROUND_TRIP_SLACK,
      );
    }
  });

  it("a press's read units do not grow with the day's changes of children outside its classrooms", async () => {
    const bus = await vehicles.create(server.db, newVehicle(1, 'R31', 'bus'));
    // Each bus press for a bus of its own: its riders' and changes' items the same size each time.
    const presses = [
      ['releaseBusRiders', busPress(3)],
      ['releaseWalkers', walkerPress(bus, 3)],
    ] as const;
    const quiet: Counted[] = [];
    for (const [route, press] of presses)
      quiet.push(await measure(route, press, pressedAt(3), `${route} (3 children)`));
    // The office approves a change for today for each of 60 children of another classroom.
    const { ids } = await roomOf(60);
    const school = await schools.get(server.db, 1);
    await seedDayChanges(server.db, {
      schoolId: 1,
      admin: OFFICE,
      date: dateIn(schoolClockOf(school as School).timeZone),
      ways: ids.map((studentId) => ({ studentId, way: { mode: 'walker' } })),
    });
    for (const [i, [route, press]] of presses.entries()) {
      const busy = await measure(route, press, pressedAt(3), `${route} (3 children, 60 changes elsewhere)`);
      const before = quiet[i] as Counted;
      expect(busy.readUnits, `${route}: read units with 60 more changes today elsewhere`).toBe(
        before.readUnits,
      );
      expect(busy.calls, `${route}: DynamoDB calls`).toBe(before.calls);
    }
  });

  it("a bus's press reads only the children it can concern: its read units do not grow with the classroom's walkers", async () => {
    const [alone, withWalkers] = [
      await measure('releaseBusRiders', busPress(3), pressedAt(3), 'releaseBusRiders (3 riders)'),
      await measure(
        'releaseBusRiders',
        busPress(3, 30),
        pressedAt(3),
        'releaseBusRiders (3 riders, 30 walkers in the classroom)',
      ),
    ];
    // The reads by key are the same; only the Query of the classroom's students (about 1 unit for 25) reads more.
    expect(withWalkers.keyedReadUnits, 'read units by key with 30 walkers in the classroom').toBe(
      alone.keyedReadUnits,
    );
    expect(withWalkers.readUnits, 'read units with 30 walkers in the classroom').toBeLessThanOrEqual(
      alone.readUnits + 1,
    );
    expect(withWalkers.calls, 'DynamoDB calls').toBe(alone.calls);
  });

  it("the polls are at most 2 calls in one round trip: the queue, the alerts and a parent's status", async () => {
    // The alerts as a screen of the running session polls them (the benchmark's screens), and as the banner does.
    const polls: Array<[string, Client, string, string?]> = [
      ['listQueue', front, `/api/queue?sessionId=${sessionId}`],
      ['listAlerts', front, `/api/alerts?sessionId=${sessionId}`, 'listAlerts (session)'],
      ['listAlerts', front, '/api/alerts'],
      ['parentStudentStatus', parent, '/api/parent/students/status'],
    ];
    for (const [route, client, path, label] of polls) {
      expectAtMost(
        route,
        await measure(route, nothing, () => send(client, 'GET', path), label),
        POLL_CALLS,
        1,
      );
    }
  });

  it("the trusted adults of a queue's children in one read: one Query a child, in 2 round trips (h57r)", async () => {
    // The front queue's cards ask the lists of their children together (issue 57): after the sign-in's
    // read, the students in one BatchGetItem, the school's clock and each child's list (DynamoDB has no
    // Query of several partitions), all at once. Asked one a child, 9 children were 9 requests of 4 calls.
    const read = (count: number) =>
      measure(
        'studentsAuthorizedPickups',
        nothing,
        () => send(front, 'GET', `/api/authorized-pickups?studentIds=${kids.slice(0, count).join(',')}`),
        `studentsAuthorizedPickups (${count} children)`,
      );
    const one = await read(1);
    const nine = await read(9);
    expect(nine.calls - one.calls, 'one Query more a child').toBe(8);
    expectAtMost('studentsAuthorizedPickups', one, 4, 2);
    expectAtMost('studentsAuthorizedPickups', nine, 4 + 8, 2);
  });

  it("a parent's poll while their child waits in line: the wait estimated in the same 2 calls", async () => {
    // A family of its own: the parent's dashboard open (its poll known to this instance) before the car comes.
    const user = await createStaff(server.db, {
      username: 'parent_calls_poll',
      role: 'parent',
      schoolId: null,
      districtId: null,
    });
    const child = await students.create(server.db, {
      schoolId: 1,
      firstName: 'Wendy',
      lastName: 'Waits',
      grade: '3',
      classroomId: null,
    });
    await parentLinks.link(server.db, user.id, 1, child.id);
    await vehicles.create(server.db, newVehicle(1, 'POLL1', 'car', { studentIds: [child.id] }));
    const family = await signedIn(server.url, 'parent_calls_poll');
    const poll = () => send(family, 'GET', '/api/parent/students/status');
    expect((await poll()).body).toMatchObject([{ id: child.id, status: 'not_in_queue' }]);
    expect(await poll()).toMatchObject({ status: 200 });
    const queuedCar = await send(front, 'POST', '/api/queue', {
      sessionId,
      vehicleNumber: 'POLL1',
      vehicleType: 'car',
    });
    expect(queuedCar.status, JSON.stringify(queuedCar.body)).toBe(201);
    // The first poll that estimates a wait in this session (its latest pickups read with the poll's own reads,
    // or kept on the instance from a poll of the last 10 s: parents.ts's SAMPLE_KEPT_MS, h54o).
    meter.reset();
    const answer = await poll();
    const of = meter.snapshot()['http/parentStudentStatus'] ?? {};
    figures['parentStudentStatus (a child in line)'] = countedOf(of);
    expect(answer.body).toMatchObject([
      {
        id: child.id,
        status: 'in_queue',
        queuePosition: expect.any(Number),
        estimatedWaitTime: expect.any(Number),
      },
    ]);
    expectAtMost(
      'parentStudentStatus',
      figures['parentStudentStatus (a child in line)'] as Counted,
      POLL_CALLS,
      1,
    );
  });
});
