import { describe, expect, it } from 'vitest';
import { assembleReport, screenReadsOf } from './assemble';
import { checkBudgets } from './budgets';
import { callBudgetChecks, DYNAMODB_ROUND_TRIP_MS, LAMBDA_CPU_SLOWDOWN, modelledAwsMs } from './calls';
import { busDismissal, specFloor } from './cost';
import { formatReport } from './report';
import type { BusWindowFigures, PhaseResults, ReadReason, Summary } from './types';

/**
 * `assembleReport` on figures made up by hand (a small rush: 80 cars, 8 staff
 * screens, 160 staff events): each derived figure is checked against its
 * arithmetic, without a server.
 */
const CHANNEL = 'school#7#staff';
const published = (n: number) => ({ [`live.published.${CHANNEL}`]: n });

const summary = (p50: number, p99 = p50 * 2, count = 100): Summary => ({
  count,
  p50,
  p95: (p50 + p99) / 2,
  p99,
  max: p99 * 1.5,
  mean: p50,
});

const reasons = (of: Partial<Record<ReadReason, number>>): Record<ReadReason, number> => ({
  load: 0,
  mount: 0,
  poll: 0,
  gap: 0,
  event: 0,
  ...of,
});

const busWindow = (relay: 'coalesced' | 'naive', messagesOut: number): BusWindowFigures => ({
  relay,
  seconds: 10,
  driverMessages: 60,
  perViewerPerSecond: { mean: messagesOut / 70 / 10, max: relay === 'naive' ? 6 : 1 },
  messagesOut,
  usagePerSecond: { lambdaGbSeconds: 0.001, readUnits: 0.5, writeUnits: 6 },
});

const broadcastFloor = (p99: number) => ({
  clients: 8,
  messages: 50,
  perSecond: 8,
  payloadBytes: 200,
  expected: 400,
  received: 400,
  latencyMs: summary(1, p99),
});

const counts = {
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

const phases = (change: (p: PhaseResults) => void = () => {}): PhaseResults => {
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

describe('assembleReport', () => {
  it("measures the staff screens' reads per event against the baseline's", () => {
    const { screens } = assembleReport(phases());
    // Patching: the screens' routes in the rush window read 20 + 5 units for 160 staff events.
    expect(screens.rush.readUnits).toBe(25);
    expect(screens.rush.events).toBe(160);
    expect(screens.rush.readUnitsPerEvent).toBeCloseTo(25 / 160);
    // The baseline: 100 units for its 20 events.
    expect(screens.baseline?.readUnitsPerEvent).toBe(5);
    expect(screens.ratio).toBeCloseTo(25 / 160 / 5);
    // Why they read (loads are reported apart), and the loads of the screens' routes only.
    expect(screens.rush.byReason).toEqual({ load: 0, mount: 2, poll: 40, gap: 8, event: 0 });
    expect(screens.loads).toEqual({ calls: 14, readUnits: 7 });
    expect(screens.staff).toEqual({ front: 4, back: 2, teacher: 2 });
  });

  it('projects a 30-minute dismissal: event reads per event over the rush, polls per minute, loads once', () => {
    const reads = assembleReport(phases()).screens.rush;
    // Polls: 30 listQueue calls at 0.5 units, 10 listAlerts calls at 0.5 units.
    const pollUnits = 30 * 0.5 + 10 * 0.5;
    // A minute of polls: 2 teachers every 5 s, 8 staff screens' alerts every 30 s.
    const pollUnitsPerMinute = 2 * 12 * 0.5 + 8 * 2 * 0.5;
    expect(reads.perDismissal).toBeCloseTo(((25 - pollUnits) / 160) * 160 + pollUnitsPerMinute * 30 + 7);
  });

  it('has no baseline and no ratio when the rush itself read every list per event', () => {
    const report = assembleReport(phases((p) => (p.baseline = null)));
    expect(report.screens.baseline).toBeNull();
    expect(report.screens.ratio).toBeNull();
    expect(
      checkBudgets(report).some((check) => check.budget.startsWith('Screen reads per queue event')),
    ).toBe(false);
  });

  it('counts what every staff screen lost or got twice against what it follows', () => {
    const { live } = assembleReport(phases());
    expect(live.expectedPerScreen).toBe(200);
    // One whole-line screen got 198 of the 200, another 201; a teacher 44 of the 45 of its classrooms.
    expect([live.receivedMin, live.receivedMax, live.lost, live.extra]).toEqual([44, 201, 3, 1]);
    expect([live.narrowedScreens, live.narrowedExpected, live.narrowedReceived]).toEqual([2, 105, 104]);
    expect(live.expected).toBe(1305);
    expect(live.messagesPerSecond).toBe(31.9); // 640 messages over 20.04 s
  });

  it('prints the messages per car of every kind of connection', () => {
    const { live } = assembleReport(phases());
    expect(live.messagesPerCar.map((k) => k.kind)).toEqual([
      'front',
      'back',
      'teacher',
      'admin map',
      'parent',
      'map viewer',
      'driver',
      'anonymous',
    ]);
    // 80 cars: 808 messages to the 4 front screens, 108 to the 2 teachers, 40 positions in from the drivers.
    expect(live.messagesPerCar[0]).toMatchObject({ connections: 4, out: 808, outPerCar: 10.1 });
    expect(live.messagesPerCar[2]).toMatchObject({ outPerCar: 1.35, inPerCar: 0.05 });
    expect(live.messagesPerCar[6]).toMatchObject({ outPerCar: 0, inPerCar: 0.5 });
  });

  it('sets a dismissal with buses and parents over the floor of the specification, and budgets the ratio at 1.25', () => {
    const report = assembleReport(phases());
    const { costVsFloor, cost, buses } = report;
    expect(costVsFloor.dismissal).toBeCloseTo(
      cost.dismissal.dollars.total + buses.dismissal.coalesced.dollars.total,
    );
    expect(costVsFloor.floor).toBe(cost.floor.dollars.total);
    expect(costVsFloor.ratio).toBeCloseTo(costVsFloor.dismissal / costVsFloor.floor);
    const verdict = (ratio: number) =>
      checkBudgets({ ...report, costVsFloor: { dismissal: ratio * 0.4, floor: 0.4, ratio } }).find((check) =>
        check.budget.includes('the floor of the specification'),
      );
    expect(verdict(1.2)).toMatchObject({ pass: true, value: expect.stringContaining('1.20×') });
    expect(verdict(1.3)?.pass).toBe(false);
  });

  it('counts in the floor one write per bus position and one read per poll (issue 54)', () => {
    const floor = specFloor({ screens: 10, pollsPerMinute: 100, buses: 2, mapScreens: 5, minutes: 30 });
    expect(floor.usage.writeUnits).toBe(2 * 60 * 30);
    expect(floor.usage.readUnits).toBe(100 * 30 * 0.5);
    expect(floor.dollars.dynamoDbWrites).toBeGreaterThan(0);
  });

  it('budgets every car-line change at 6 calls and 4 round trips, polls at 2 calls, and models the AWS latency', () => {
    const report = assembleReport(phases());
    const [add] = report.api.routes;
    if (!add) throw new Error('no route');
    const within = { ...add, dynamoCallsPerCall: 6, roundTripsPerCall: 4, handlerMsPerCall: 1 };
    const verdicts = (row: typeof add) =>
      callBudgetChecks({
        ...report,
        api: { ...report.api, routes: [row, ...report.api.routes.slice(1)] },
      }).map((check) => check.pass);
    // Calls, round trips, polls (listQueue: the fixture's poll has no calls), modelled latency.
    expect(verdicts(within).slice(0, 2)).toEqual([true, true]);
    expect(verdicts({ ...within, dynamoCallsPerCall: 6.5 })[0]).toBe(false);
    expect(verdicts({ ...within, roundTripsPerCall: 5 })[1]).toBe(false);
    // The server's 10 CPU seconds shared by wall time: with one route alone, 10,000 ms over its 80 calls.
    const alone = { ...report, handlers: [], api: { ...report.api, routes: [within] } };
    expect(modelledAwsMs(alone, within)).toBeCloseTo(4 * DYNAMODB_ROUND_TRIP_MS + 125 * LAMBDA_CPU_SLOWDOWN);
    expect(callBudgetChecks(alone).at(-1)).toMatchObject({
      pass: false,
      value: expect.stringContaining('addToQueue'),
    });
  });

  it("prices the teachers' subscriptions once a dismissal: their writes, the message in and the answer out", () => {
    const without = assembleReport(phases()).cost.dismissal.usage;
    const withSubscribes = assembleReport(
      phases(
        (p) =>
          (p.setup.subscribes = {
            'lambda.invocations': 2,
            'lambda.billedMs': 10,
            'ddb.writeUnits': 6,
            'live.billedMessages': 2,
          }),
      ),
    ).cost.dismissal.usage;
    expect(withSubscribes.writeUnits - without.writeUnits).toBeCloseTo(6);
    expect(withSubscribes.webSocketMessages - without.webSocketMessages).toBeCloseTo(4);
    expect(withSubscribes.lambdaRequests - without.lambdaRequests).toBeCloseTo(2);
  });

  it('fails the run when a teacher gets another classroom’s car or a message crosses schools', () => {
    const verdict = (change: (p: PhaseResults) => void) =>
      checkBudgets(assembleReport(phases(change))).find((check) =>
        check.budget.startsWith('A teacher screen gets nothing'),
      )?.pass;
    expect(verdict(() => {})).toBe(true);
    expect(verdict((p) => (p.tallies.staff.outside = 1))).toBe(false);
    expect(verdict((p) => (p.tallies.crossed = 1))).toBe(false);
    expect(verdict((p) => (p.buses.crossed = 2))).toBe(false);
  });

  it("splits a car's write units between the queue and the event's sequence number", () => {
    const { dynamo } = assembleReport(phases());
    // 240 write units for 80 cars, 80 of them the sequence numbers of 160 events.
    const perCar = [dynamo.writeUnitsPerCarAdded, dynamo.queueWriteUnitsPerCarAdded];
    expect([...perCar, dynamo.sequenceWriteUnitsPerEvent]).toEqual([3, 2, 0.5]);
    expect(dynamo.writeUnits).toBe(262);
    expect(dynamo.queueReads.late.completedPickups).toBe(80);
  });

  it("sums the guarantees' write units over every route and prices them in the report", () => {
    const report = assembleReport(phases());
    // The record and keys from updateBatch, the sequence numbers from addToQueue.
    expect(report.dynamo.guarantees).toEqual({ record: 12_000, idempotency: 6_400, sequence: 80 });
    const line = formatReport(report, checkBudgets(report))
      .split('\n')
      .find((text) => text.startsWith("Of the car line's writes, its guarantees"));
    // 18,480 write units at $0.625 a million.
    expect(line).toMatch(
      /the record \$0\.00750 \(12,000 write units.*Keys \$0\.00400 \(6,400\).*\$0\.012 together/,
    );
  });

  it('lists the routes busiest first with their per-call meter, and the WebSocket handlers apart', () => {
    const report = assembleReport(phases());
    expect(report.api.routes.map((row) => row.route)).toEqual(['addToQueue', 'listQueue']);
    const [add] = report.api.routes;
    expect(add).toMatchObject({
      calls: 80,
      writeUnitsPerCall: 3,
      dynamoCallsPerCall: 3,
      messagesPerCall: 8,
      handlerMsPerCall: 9,
    });
    expect(add?.operations).toEqual({ PutItem: { callsPerCall: 2, unitsPerCall: 2 } });
    expect(report.handlers.map((row) => row.handler)).toEqual(['ws/default', 'ws/connect']);
  });

  it('compares the API and the fan-out with the lower floor run', () => {
    const { floor } = assembleReport(phases());
    expect(floor.putP50Ms).toBe(3);
    expect(floor.broadcastP99Ms).toBe(4);
    expect(floor.apiP50OverPutP50).toBe(5); // 15 ms ÷ 3 ms
    expect(floor.fanoutP99OverBroadcastP99).toBe(10); // 40 ms ÷ 4 ms
  });

  it("reports the parents' messages, reads and their share of the cost", () => {
    const { parents } = assembleReport(phases());
    expect(parents.messages).toBe(65);
    expect(parents.messagesPerPhone).toBe(3.3);
    expect(parents.readUnits).toBe(15);
    expect(parents.deliveryMs.p99).toBe(60);
    expect(parents.messageDollars).toBeGreaterThan(0);
  });

  it("prices the drivers' positions with the buses, not as the screens' pings", () => {
    const fewer = assembleReport(phases((p) => (p.buses.rush = { ...p.buses.rush, driverMessages: 40 })));
    const more = assembleReport(phases());
    // 20 more driver messages in `$default`: 20 fewer pings priced in the run.
    expect(fewer.cost.asRun.usage.lambdaRequests - more.cost.asRun.usage.lambdaRequests).toBeCloseTo(20);
    // The naive relay's dismissal costs more than the coalesced one's.
    expect(more.buses.dismissal.naive.dollars.total).toBeGreaterThan(
      more.buses.dismissal.coalesced.dollars.total,
    );
    expect(more.buses.dismissalMinutes).toBe(30);
  });

  it('answers the rush figures as the run measured them, rounded for the report', () => {
    const report = assembleReport(phases());
    expect(report.rush).toMatchObject({ seconds: 20, requestsPerSecond: 20, leftInQueue: 0, requests: 400 });
    expect(report.setup).toMatchObject({ ms: 9000, logins: 8 });
    expect(report.memory.generatorPeakRssMb).toBe(180);
  });
});

describe('screenReadsOf', () => {
  it('counts only the staff screens’ list routes of the window', () => {
    const p = phases();
    const reads = screenReadsOf(p.rush, p.afterRush.reads, CHANNEL, {
      events: 160,
      loadReadUnits: 0,
      pollsPerMinute: {},
    });
    expect(Object.keys(reads.byRoute)).toEqual(['listQueue', 'listAlerts']);
    expect(reads.calls).toBe(50);
  });
});

describe('busDismissal', () => {
  it("projects a window's bus traffic to a dismissal: messages in and out, connections the whole time", () => {
    // 60 driver messages and 700 out in 10 s; 14 connections (2 buses, 10 viewers, 2 admin maps) over 30 minutes.
    const { usage } = busDismissal(busWindow('coalesced', 700), 14, 30);
    expect(usage.lambdaRequests).toBe(6 * 1800);
    expect(usage.webSocketMessages).toBe(76 * 1800);
    expect(usage.connectionMinutes).toBe(14 * 30);
    expect(usage.writeUnits).toBe(6 * 1800);
    // The 12 map screens' pings: 2 a minute each, a ping in and a pong out.
    const withPings = busDismissal(busWindow('coalesced', 700), 14, 30, 12).usage;
    expect(withPings.webSocketMessages - usage.webSocketMessages).toBe(12 * 2 * 30 * 2);
    expect(withPings.lambdaRequests - usage.lambdaRequests).toBe(12 * 2 * 30);
  });
});

describe('formatReport', () => {
  it('prints every section in order and one line per budget', () => {
    const report = assembleReport(phases());
    const budgets = checkBudgets(report);
    const text = formatReport(report, budgets);
    const titles = [
      'API latency (client-side over HTTP, rush) and cost per call (server meter)',
      'Live events',
      'Staff screens, as the web client runs them (rush)',
      'DynamoDB (rush, as AWS bills it)',
      'The rush over time',
      'Memory',
      'CPU during the rush',
      'Floor (same machine, same run; ratios over the lower run)',
      'AWS cost (list prices, us-east-1; test/bench/aws-prices.ts)',
      'Budgets (DESIGN.md)',
    ];
    const at = titles.map((title) => text.indexOf(`\n${title}\n${'═'.repeat(title.length)}\n`));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const verdicts = text.split('\n').filter((line) => /^(PASS|FAIL) {2}/.test(line));
    expect(verdicts).toHaveLength(budgets.length);
    expect(text).toContain('lost 3, extra 1');
    expect(text).toMatch(/teacher\s+2\s+108\s+1\.35\s+4\s+0\.05/);
    expect(text).toContain('× that floor');
  });

  it("checks the session report's read time, and fails a report that did not answer", () => {
    const line = (p: PhaseResults) =>
      checkBudgets(assembleReport(p)).find((check) => check.budget.startsWith('A session report reads'));
    expect(line(phases())).toMatchObject({ pass: true, value: expect.stringContaining('80 cars') });
    expect(line(phases((p) => Object.assign(p.sessionReport, { slowestMs: 1200 })))?.pass).toBe(false);
    expect(line(phases((p) => Object.assign(p.sessionReport, { status: 500, cars: 0 })))?.pass).toBe(false);
  });
});
