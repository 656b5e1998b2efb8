/**
 * The dismissal rush: front staff queue cars as they arrive, back staff load
 * them in batches of up to 8 (sending a few to overflow and dismissing them),
 * front staff complete a few walk-up pickups on their own, and teachers
 * release their students as their screen shows them ready (looking every 5 s):
 * their walkers in one press, each bus's riders in one press once the bus is
 * queued (ADR 0022), their car riders one by one. The buses (30% of the
 * school rides one) are at the curb when the bell rings; the front staff
 * complete each once its riders were sent and loaded. Staff act on what
 * their screen shows (a `WebScreen`, kept current as the web client keeps
 * it); only the screens read lists. Every loop is bounded by the deadline and
 * stops by itself.
 */
import type { TeacherStudent } from '@curbside/domain';
import type { BenchClient } from './http';
import type { Car } from './school';
import type { Screen } from './screens';
import { seededRandom, sleep } from './stats';
import type { RushCounts } from './types';
import type { WebScreen } from './web-screen';

/** Share of cars the front staff complete on their own (walk-up pickup from the details dialog). */
const WALK_UP_SHARE = 0.05;
/** How soon after queueing the front staff complete a walk-up pickup. */
const WALK_UP_MS = 500;
/** Share of loaded cars the back staff send to overflow (not ready), dismissed a little later. */
const OVERFLOW_SHARE = 0.05;
/** How long a batch takes to load once filled (compressed). */
const LOAD_MS = 1000;
/** How long back staff wait for more cars before sending off a partly filled batch. */
const PARTIAL_WAIT_MS = 1500;
const RETRY_MS = 1000;
/** How often a teacher looks at the ready list (as often as the queue status card polls). */
const TEACHER_LOOK_MS = 5000;
/** The longest a bus waits at the curb for its riders to be sent before the front staff complete it anyway. */
const BUS_WAIT_MS = 30_000;
/** How long a screen that shows no car waiting is trusted to be current (past a sequence gap's grace). */
const SETTLE_MS = 2500;

export class Rush {
  readonly counts: RushCounts = {
    queued: 0,
    walkUpCompleted: 0,
    batchesCreated: 0,
    batchesCompleted: 0,
    batched: 0,
    completedInBatches: 0,
    overflowed: 0,
    dismissed: 0,
    released: 0,
    busesQueued: 0,
    busesCompleted: 0,
    walkersReleased: 0,
    busRidersReleased: 0,
    completedAnyway: 0,
    conflicts: 0,
    unexpected: 0,
  };
  readonly unexpectedAnswers: string[] = [];
  /** Every student a teacher released in this rush (one by one or in a press). */
  readonly releasedIds = new Set<number>();
  arrivalsDone = false;
  backDone = false;
  timedOut = false;
  private readonly tasks = new Set<Promise<unknown>>();

  constructor(
    readonly sessionId: number,
    /** `performance.now()` after which every loop stops. */
    readonly deadline: number,
  ) {}

  over() {
    if (performance.now() > this.deadline) this.timedOut = true;
    return this.timedOut;
  }

  /** Runs a side task (a later dismissal or completion) that the rush waits for at the end. */
  track(task: Promise<unknown>) {
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  async settle() {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /**
   * A completion as the screens make it (issue 50): sent as is; when the
   * server asks about children no teacher released yet, the staff answer
   * "Complete anyway" (the same call, confirmed).
   */
  async complete<T>(client: BenchClient, route: string, method: string, path: string, body: object) {
    const first = await client.call<T>(route, method, path, body);
    const asked = first.status === 409 && Array.isArray((first.body as { unreleased?: unknown }).unreleased);
    if (!asked) return first;
    this.counts.completedAnyway++;
    return client.call<T>(route, method, path, { ...body, confirmUnreleased: true });
  }

  /** A pickup completed from the visit's details (a walk-up car, a loaded bus), as `complete` sends it. */
  completeEntry(client: BenchClient, entryId: string) {
    return this.complete(
      client,
      'setQueueStatus',
      'PUT',
      `/api/queue/${encodeURIComponent(entryId)}/status`,
      {
        status: 'completed',
      },
    );
  }

  /**
   * Counts an answer: true for 2xx; 409s (and a 404 where `gone` says the car
   * may have left meanwhile) are counted as conflicts, anything else as unexpected.
   */
  check(what: string, answer: { status: number; body: unknown }, gone = false): boolean {
    if (answer.status >= 200 && answer.status < 300) return true;
    if (answer.status === 409 || (gone && answer.status === 404)) this.counts.conflicts++;
    else {
      this.counts.unexpected++;
      if (this.unexpectedAnswers.length < 20) {
        this.unexpectedAnswers.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    return false;
  }
}

/** Arrival times (ms from the start) of `count` cars over `durationMs`: a Poisson process. */
export const arrivalTimes = (count: number, durationMs: number, seed: number): number[] => {
  const random = seededRandom(seed);
  const gaps = Array.from({ length: count }, () => -Math.log(1 - random()));
  const total = gaps.reduce((sum, gap) => sum + gap, 0);
  let at = 0;
  return gaps.map((gap) => {
    at += (gap / total) * durationMs;
    return at;
  });
};

/** One front-queue tablet: queues its cars at their arrival times. */
export const frontStaff = async (
  rush: Rush,
  client: BenchClient,
  cars: ReadonlyArray<{ car: Car; at: number }>,
  startedAt: number,
  seed: number,
) => {
  const random = seededRandom(seed);
  for (const { car, at } of cars) {
    if (rush.over()) return;
    await sleep(startedAt + at - performance.now());
    const added = await client.call<{ id: string }>('addToQueue', 'POST', '/api/queue', {
      sessionId: rush.sessionId,
      vehicleNumber: car.number,
      vehicleType: 'car',
    });
    if (!rush.check('addToQueue', added)) continue;
    rush.counts.queued++;
    if (random() < WALK_UP_SHARE) {
      rush.track(
        (async () => {
          await sleep(WALK_UP_MS);
          const done = await rush.completeEntry(client, added.body.id);
          // The back staff may have loaded and completed the car first: a 409 (already picked up) then.
          if (rush.check('setQueueStatus', done, true)) rush.counts.walkUpCompleted++;
        })(),
      );
    }
  }
};

/** A bus at the curb: its visit and the riders it calls. */
export interface BusAtCurb {
  client: BenchClient;
  entryId: string;
  riders: number[];
}

/** Queues a bus at a front tablet (it calls its riders); undefined when the server refused it (counted). */
export const queueBus = async (
  rush: Rush,
  client: BenchClient,
  number: string,
): Promise<BusAtCurb | undefined> => {
  const added = await client.call<{ id: string; students?: Array<{ id: number }> }>(
    'addToQueue',
    'POST',
    '/api/queue',
    { sessionId: rush.sessionId, vehicleNumber: number, vehicleType: 'bus' },
  );
  if (!rush.check('addToQueue', added)) return undefined;
  rush.counts.busesQueued++;
  return { client, entryId: added.body.id, riders: (added.body.students ?? []).map((student) => student.id) };
};

/**
 * A bus loading: the front staff complete it once every rider it called was
 * sent and loaded; after `BUS_WAIT_MS` they complete it anyway (the server
 * asks, they confirm).
 */
export const loadBus = (rush: Rush, bus: BusAtCurb) =>
  rush.track(
    (async () => {
      await until(() => bus.riders.every((id) => rush.releasedIds.has(id)), BUS_WAIT_MS);
      await sleep(LOAD_MS);
      const done = await rush.completeEntry(bus.client, bus.entryId);
      if (rush.check('setQueueStatus', done)) rush.counts.busesCompleted++;
    })(),
  );

/** Waits until `ready()` holds, or `ms` passed; answers whether it held. */
const until = async (ready: () => boolean, ms: number) => {
  const deadline = performance.now() + ms;
  while (!ready() && performance.now() < deadline) await sleep(25);
  return ready();
};

/**
 * One back-queue tablet: new batch, fill it, send a few to overflow, load,
 * complete; until the line is empty. It presses Add to batch only when its
 * screen shows a car waiting for one, and otherwise waits for the next
 * VEHICLE_QUEUED on its connection (at most `RETRY_MS`), as staff watch
 * their queue list. Once arrivals are over and the screen has shown no car
 * waiting for a moment, it stops.
 */
export const backStaff = async (
  rush: Rush,
  client: BenchClient,
  web: WebScreen,
  screen: Screen,
  seed: number,
) => {
  const random = seededRandom(seed);
  const { sessionId } = rush;
  while (!rush.over()) {
    if (rush.arrivalsDone && web.waitingCars() === 0) {
      // The screen shows nobody waiting: trust it once it has had time to catch up.
      if (!(await until(() => web.waitingCars() > 0, SETTLE_MS))) return;
    }
    const created = await client.call<{ id: number; maxCapacity: number }>(
      'createBatch',
      'POST',
      '/api/batches',
      {
        sessionId,
        vehicleType: 'car',
      },
    );
    if (!rush.check('createBatch', created)) {
      await sleep(RETRY_MS);
      continue;
    }
    rush.counts.batchesCreated++;
    const batch = created.body;
    let count = 0;
    let waitingSince: number | undefined;
    while (count < batch.maxCapacity && !rush.over()) {
      // Press "Add to batch" only when the screen shows a car waiting for one.
      if (web.waitingCars() === 0 && !rush.arrivalsDone) {
        const news = await screen.next('VEHICLE_QUEUED', RETRY_MS);
        if (!news && web.waitingCars() === 0) {
          waitingSince ??= performance.now();
          if (count > 0 && performance.now() - waitingSince > PARTIAL_WAIT_MS) break;
          continue;
        }
      }
      const added = await client.call<{ currentCount: number; message?: string }>(
        'addToBatch',
        'POST',
        `/api/batches/${batch.id}/vehicles`,
      );
      if (rush.check('addToBatch', added)) {
        count = added.body.currentCount;
        rush.counts.batched++;
        waitingSince = undefined;
        continue;
      }
      const message = String((added.body as { message?: string } | undefined)?.message ?? '');
      if (/is full/.test(message)) break;
      // Nothing waiting (or the line is changing under us): wait for the next car a moment.
      if (rush.arrivalsDone && count === 0) break;
      waitingSince ??= performance.now();
      if (count > 0 && performance.now() - waitingSince > PARTIAL_WAIT_MS) break;
      if (web.waitingCars() > 0) await sleep(100); // another tablet took it; the screen catches up
    }
    if (count > 0) {
      // The batch card shows its vehicles once the events have come in.
      await until(() => (web.batchVehicles(batch.id)?.length ?? 0) >= count, RETRY_MS);
      for (const entry of web.batchVehicles(batch.id) ?? []) {
        if (random() >= OVERFLOW_SHARE) continue;
        const moved = await client.call(
          'updateQueueEntry',
          'PUT',
          `/api/queue/${encodeURIComponent(entry.id)}`,
          {
            batchId: null,
            status: 'overflow',
          },
        );
        // A front tablet may have completed the car meanwhile (walk-up pickup): a 409 then.
        if (!rush.check('updateQueueEntry', moved, true)) continue;
        rush.counts.overflowed++;
        const later = 1000 + random() * 2000;
        rush.track(
          (async () => {
            await sleep(later);
            const removed = await client.call(
              'removeFromQueue',
              'DELETE',
              `/api/queue/${encodeURIComponent(entry.id)}`,
            );
            if (rush.check('removeFromQueue', removed, true)) rush.counts.dismissed++;
          })(),
        );
      }
      await sleep(LOAD_MS);
    }
    const completed = await rush.complete<{ currentCount: number }>(
      client,
      'updateBatch',
      'PUT',
      `/api/batches/${batch.id}`,
      { status: 'completed' },
    );
    if (rush.check('updateBatch', completed)) {
      rush.counts.batchesCompleted++;
      rush.counts.completedInBatches += completed.body.currentCount;
    }
  }
};

/**
 * One teacher: looks at their screen every 5 s (from a moment of their own)
 * and releases who is new to send: the walkers in one press (ADR 0022), each
 * queued bus's riders in one press, the ready car riders one by one.
 */
export const teacherStaff = async (
  rush: Rush,
  client: BenchClient,
  web: WebScreen,
  classroomIds: readonly number[],
  offsetMs: number,
  stopped: () => boolean,
) => {
  const released = new Set<number>();
  const waiting = (student: TeacherStudent) => !student.releasedAt && !released.has(student.id);
  /** One press by way home: every student it answers is released. */
  const press = async (route: string, path: string, counted: 'walkersReleased' | 'busRidersReleased') => {
    const answer = await client.call<{ released: number[] }>(route, 'POST', path, { classroomIds });
    if (!rush.check(route, answer)) return;
    for (const id of answer.body.released) {
      released.add(id);
      rush.releasedIds.add(id);
    }
    rush.counts[counted] += answer.body.released.length;
  };
  await sleep(offsetMs);
  while (!stopped() && !rush.over()) {
    const started = performance.now();
    const students = web.students();
    if (students.some((student) => student.today?.way.mode === 'walker' && waiting(student))) {
      await press('releaseWalkers', '/api/walkers/release', 'walkersReleased');
    }
    // A bus's riders once the screen shows it arrived or loading (its riders in the line).
    const buses = new Set(
      students
        .filter((student) => student.today?.way.mode === 'bus' && student.inQueue && waiting(student))
        .map((student) => (student.today.way as { vehicleId: number }).vehicleId),
    );
    for (const busId of buses) {
      await press('releaseBusRiders', `/api/buses/${busId}/release`, 'busRidersReleased');
    }
    for (const student of web.readyStudents()) {
      if (released.has(student.id) || (student.today && student.today.way.mode !== 'car')) continue;
      released.add(student.id);
      const answer = await client.call(
        'releaseStudent',
        'PUT',
        `/api/teacher/students/${student.id}/release`,
      );
      if (!rush.check('releaseStudent', answer)) continue;
      rush.counts.released++;
      rush.releasedIds.add(student.id);
    }
    // The rest of the interval in short steps, so the teacher stops soon after the rush.
    while (!stopped() && !rush.over() && performance.now() - started < TEACHER_LOOK_MS) {
      await sleep(Math.min(250, TEACHER_LOOK_MS - (performance.now() - started)));
    }
  }
};
