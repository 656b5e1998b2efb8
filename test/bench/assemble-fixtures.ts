import type { BusWindowFigures, PhaseResults, ReadReason, Summary } from './types';

/**
 * Figures made up by hand for the benchmark report's tests (a small rush: 80 cars, 8 staff
 * screens, 160 staff events), so each derived figure can be checked against its arithmetic,
 * without a server (assemble.test.ts, report-figures.test.ts).
 */
export const CHANNEL = 'school#7#staff';
export const published = (n: number) => ({ [`live.published.${CHANNEL}`]: n });

export const summary = (p50: number, p99 = p50 * 2, count = 100): Summary => ({
  count,
  p50,
  p95: (p50 + p99) / 2,
  p99,
  max: p99 * 1.5,
  mean: p50,
});

export const reasons = (of: Partial<Record<ReadReason, number>>): Record<ReadReason, number> => ({
  load: 0,
  mount: 0,
  poll: 0,
  gap: 0,
  event: 0,
  ...of,
});

export const busWindow = (relay: 'coalesced' | 'naive', messagesOut: number): BusWindowFigures => ({
  relay,
  seconds: 10,
  driverMessages: 60,
  perViewerPerSecond: { mean: messagesOut / 70 / 10, max: relay === 'naive' ? 6 : 1 },
  messagesOut,
  usagePerSecond: { lambdaGbSeconds: 0.001, readUnits: 0.5, writeUnits: 6 },
});

export const broadcastFloor = (p99: number) => ({
  clients: 8,
  messages: 50,
  perSecond: 8,
  payloadBytes: 200,
  expected: 400,
  received: 400,
  latencyMs: summary(1, p99),
});

export const counts = {
  queued: 80,
  walkUpCompleted: 4,
  batchesCreated: 10,
  batchesCompleted: 10,
  batched: 76,
  completedInBatches: 72,
  overflowed: 4,
  dismissed: 4,
  released: 150,
  busesQueued: 2,
  busesCompleted: 2,
  walkersReleased: 20,
  busRidersReleased: 60,
  completedAnyway: 2,
  conflicts: 3,
  unexpected: 0,
};

export const phases = (change: (p: PhaseResults) => void = () => {}): PhaseResults => {
  const p: PhaseResults = {
    scale: 0.1,
    startedAt: '2026-11-26T19:00:00.000Z',
    machine: { cpus: 2, node: 'v22.12.0', platform: 'linux x64', loadAverage: [1.5, 1.2, 1] },
    setup: {
      plan: {
        students: 200,
        cars: 80,
        probeCars: 5,
        classrooms: 8,
        front: 4,
        back: 2,
        teachers: 2,
        parents: 20,
        screens: { staff: 8, anonymous: 10 },
        arrivalWindowSec: 12,
      },
      seed: { ms: 4200, writes: 900, students: 200, cars: 85, staff: 8, classrooms: 8 },
      ms: 9000,
      staff: { front: 4, back: 2, teacher: 2 },
      staffChannel: CHANNEL,
      connects: { 'lambda.invocations': 38, 'lambda.billedMs': 76, 'ddb.writeUnits': 38 },
    },
    warmUp: {
      sessionId: 1,
      createSession: { 'lambda.invocations': 1, 'lambda.billedMs': 5, 'ddb.writeUnits': 2 },
      early: { activeEntries: 5, completedPickups: 0, calls: 3, readUnitsPerCall: 1.5 },
      loads: {
        'http/listQueue': { 'lambda.invocations': 6, 'ddb.readUnits': 3 },
        'http/listAlerts': { 'lambda.invocations': 8, 'ddb.readUnits': 4 },
        'http/login': { 'lambda.invocations': 99, 'ddb.readUnits': 99 },
      },
    },
    rush: {
      mode: 'patch',
      cars: 80,
      arrivalWindowSec: 12,
      seconds: 20.04,
      timedOut: false,
      counts,
      unexpectedAnswers: [],
      window: {
        'http/addToQueue': {
          'lambda.invocations': 80,
          'lambda.billedMs': 800,
          'lambda.ms': 720,
          'lambda.cpuMs': 160,
          'ddb.calls': 240,
          'ddb.PutItem.calls': 160,
          'ddb.PutItem.units': 160,
          'ddb.readUnits': 40,
          'ddb.writeUnits': 240,
          'ddb.sequenceWriteUnits': 80,
          'live.messages': 640,
          'live.bytes': 128_000,
          ...published(80),
        },
        'http/updateBatch': {
          'lambda.invocations': 10,
          'ddb.writeUnits': 20,
          'ddb.recordWriteUnits': 12_000,
          'ddb.idempotencyWriteUnits': 6_400,
          ...published(80),
        },
        'http/listQueue': { 'lambda.invocations': 40, 'ddb.readUnits': 20 },
        'http/listAlerts': { 'lambda.invocations': 10, 'ddb.readUnits': 5 },
        'http/parentStudentStatus': { 'lambda.invocations': 30, 'ddb.readUnits': 15 },
        'ws/default': { 'lambda.invocations': 100, 'lambda.billedMs': 100 },
        'ws/connect': { 'lambda.invocations': 2, 'ddb.writeUnits': 2 },
      },
      deliveryMs: summary(12, 40),
      parentDeliveryMs: summary(15, 60),
      cpu: {
        seconds: 20,
        cores: 2,
        server: { seconds: 10, cores: 0.5 },
        dynamoLocal: { seconds: 8, cores: 0.4 },
        generator: { seconds: 6, cores: 0.3 },
        others: null,
        machineBusy: null,
      },
      serverMemory: { baselineRssMb: 150, peakRssMb: 210, peakHeapUsedMb: 90, samples: 40 },
      timeline: [],
      buses: { deliveryMs: summary(30, 80), window: busWindow('coalesced', 700) },
      traffic: {
        front: { connections: 4, in: 8, out: 808 },
        back: { connections: 2, in: 4, out: 404 },
        // Two teachers: one subscription and one ping each.
        teacher: { connections: 2, in: 4, out: 108 },
        'admin map': { connections: 2, in: 2, out: 42 },
        parent: { connections: 20, in: 20, out: 85 },
        'map viewer': { connections: 10, in: 10, out: 210 },
        driver: { connections: 2, in: 40, out: 0 },
        anonymous: { connections: 10, in: 10, out: 10 },
      },
    },
    buses: {
      buses: 2,
      viewers: 10,
      adminScreens: 2,
      deliveryMs: summary(30, 80),
      rush: busWindow('coalesced', 700),
      naive: busWindow('naive', 4_000),
      leaks: 0,
      crossed: 0,
    },
    afterRush: {
      reads: {
        byRoute: {
          listQueue: reasons({ mount: 2, poll: 30, gap: 8 }),
          listAlerts: reasons({ poll: 10 }),
        },
        gaps: 1,
        failedReads: 0,
      },
      leftInQueue: 0,
      late: { activeEntries: 5, completedPickups: 80, calls: 3, readUnitsPerCall: 1.5 },
    },
    sessionReport: {
      cars: 80,
      pickups: 80,
      reads: [180, 95, 90],
      slowestMs: 180,
      readUnitsPerRead: 41.5,
      status: 200,
    },
    baseline: {
      mode: 'refetch-all',
      cars: 10,
      arrivalWindowSec: 5,
      seconds: 9.96,
      timedOut: false,
      counts: { ...counts, queued: 10 },
      unexpectedAnswers: [],
      window: {
        'http/addToQueue': { 'lambda.invocations': 10, ...published(20) },
        'http/listQueue': { 'lambda.invocations': 200, 'ddb.readUnits': 100 },
      },
      reads: { byRoute: { listQueue: reasons({ event: 200 }) }, gaps: 0, failedReads: 0 },
    },
    addToBatch: {
      at50: { waiting: 50, calls: 8, readUnitsPerCall: 2, operations: { Query: 1, TransactWriteItems: 1 } },
      at300: {
        waiting: 300,
        calls: 8,
        readUnitsPerCall: 2.1,
        operations: { Query: 1, TransactWriteItems: 1 },
      },
    },
    publishedToStaff: 200,
    floor: {
      put: [
        { clients: 8, perSecond: 10, puts: 60, errors: 0, itemBytes: 700, latencyMs: summary(4) },
        { clients: 8, perSecond: 10, puts: 60, errors: 0, itemBytes: 700, latencyMs: summary(3) },
      ],
      broadcast: [broadcastFloor(5), broadcastFloor(4)],
      requests: 400,
      requestsPerSecond: 19.96,
      rushEvents: 160,
      rushMessages: 640,
      messageBytes: 200,
      eventsPerSecond: 7.98,
    },
    disconnects: { 'lambda.invocations': 18, 'lambda.billedMs': 36, 'ddb.writeUnits': 18 },
    tallies: {
      staff: {
        kinds: ['front', 'front', 'front', 'front', 'back', 'back', 'teacher', 'teacher'],
        // The teachers follow their classrooms: 60 and 45 of the 200 events concern them.
        received: [200, 200, 198, 201, 200, 200, 60, 44],
        expected: [200, 200, 200, 200, 200, 200, 60, 45],
        outside: 0,
        unstamped: 0,
        byType: { QUEUE_UPDATE: 1600 },
      },
      anonymous: { screens: 10, events: 0, queueEvents: 0 },
      parents: {
        phones: 20,
        byType: { STUDENT_STATUS_UPDATE: 40, QUEUE_UPDATE: 25 },
        leaks: 0,
        reads: 60,
        polls: 30,
      },
      pingsSent: 30,
      crossed: 0,
      calls: {
        routes: {
          listQueue: {
            calls: 40,
            latencyMs: summary(8),
            statuses: { 200: 40 },
            billedRequests: 40,
            bytes: 40_000,
          },
          addToQueue: {
            calls: 80,
            latencyMs: summary(20),
            statuses: { 201: 80 },
            billedRequests: 80,
            bytes: 56_000,
          },
        },
        overall: summary(15, 60, 400),
        networkErrors: 0,
        serverErrors: 0,
        login: { calls: 8, latencyMs: summary(300), statuses: { 200: 8 }, billedRequests: 8, bytes: 800 },
      },
    },
    generatorPeakRssMb: 180,
  };
  change(p);
  return p;
};
