import { describe, expect, it } from 'vitest';
import { assembleReport } from './assemble';
import { phases } from './assemble-fixtures';
import { checkBudgets } from './budgets';
import {
  callBudgetChecks,
  callLines,
  cpuMsPerCall,
  DYNAMODB_ROUND_TRIP_MS,
  LAMBDA_CPU_SLOWDOWN,
  modelledAwsMs,
} from './calls';
import { specFloor } from './cost';
import { formatReport } from './report';
import type { PhaseResults } from './types';

/**
 * `assembleReport` on figures made up by hand (assemble-fixtures.ts): each derived figure is
 * checked against its arithmetic, without a server.
 */
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
    const within = {
      ...add,
      dynamoCallsPerCall: 6,
      roundTripsPerCall: 4,
      handlerMsPerCall: 1,
      handlerCpuMsPerCall: 2,
    };
    const verdicts = (row: typeof add) =>
      callBudgetChecks({
        ...report,
        api: { ...report.api, routes: [row, ...report.api.routes.slice(1)] },
      }).map((check) => check.pass);
    // Calls, round trips, polls (listQueue: the fixture's poll has no calls), modelled latency.
    expect(verdicts(within).slice(0, 2)).toEqual([true, true]);
    expect(verdicts({ ...within, dynamoCallsPerCall: 6.5 })[0]).toBe(false);
    expect(verdicts({ ...within, roundTripsPerCall: 5 })[1]).toBe(false);
    // The model on the handler's own CPU: 4 round trips and 2 ms on a 512 MB Lambda.
    expect(modelledAwsMs(within)).toBeCloseTo(4 * DYNAMODB_ROUND_TRIP_MS + 2 * LAMBDA_CPU_SLOWDOWN);
    expect(verdicts(within).at(-1)).toBe(true);
    expect(verdicts({ ...within, handlerCpuMsPerCall: 10 }).at(-1)).toBe(false);
  });

  it("models the AWS latency on the handler's own CPU, and prints the process's share beside it (issue 54)", () => {
    const report = assembleReport(phases());
    const metered = report.api.routes.find((row) => row.route === 'addToQueue');
    if (!metered) throw new Error('no addToQueue');
    const add = { ...metered, roundTripsPerCall: 4 };
    // The meter's 160 ms of the handler's own CPU over its 80 calls.
    expect(add.handlerCpuMsPerCall).toBe(2);
    // The server's 10 CPU seconds shared by wall time: with one route alone, 10,000 ms over its 80 calls.
    const alone = { ...report, handlers: [], api: { ...report.api, routes: [add] } };
    expect(cpuMsPerCall(alone, add)).toBeCloseTo(125);
    // A route that waited on DynamoDB is not charged the share: 2 ms, not 125, on the Lambda.
    expect(modelledAwsMs(add)).toBeCloseTo(4 * DYNAMODB_ROUND_TRIP_MS + 2 * LAMBDA_CPU_SLOWDOWN);
    const lines = callLines(alone);
    expect(lines[0]).toContain("the handler's own CPU per call × 3.46");
    expect(lines[1]).toMatch(/CPU ms +share ms +p50 ms +AWS ms$/);
    const row = lines
      .find((line) => line.startsWith('addToQueue'))
      ?.trim()
      .split(/ +/);
    expect(row?.slice(3, 5)).toEqual(['2.0', '125']);
    // calls, trips, CPU, share, p50, AWS: 20 ms of round trips + 6.9 ms of CPU (it was 20 + 432 on the share).
    expect(row?.at(-1)).toBe('27');
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
