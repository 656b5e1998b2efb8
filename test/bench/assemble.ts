/**
 * The report from the phases' figures: pure (no I/O, no clock), so every
 * derived figure (per call, per event, per dismissal, the ratios, the cost
 * model) can be checked on figures made up by hand.
 */

import type { MeterCounters, MeterSnapshot } from '@curbside/store';
import { PARENT_STATUS_POLL_MS } from '@curbside/web/cache';
import { AWS_PRICES } from './aws-prices';
import { busDismissal, costModel } from './cost';
import { allFigures, figuresOf, operationsOf, perCall, publishedTo, sumOf } from './meter-window';
import { round, summarize } from './stats';
import {
  type BenchReport,
  type CostModel,
  type HandlerRow,
  type KindMessages,
  type KindTraffic,
  type ParentFigures,
  type PhaseResults,
  type Priced,
  READ_REASONS,
  type ReadReason,
  type RouteFigures,
  type RouteRow,
  type RushFigures,
  type ScreenReads,
  type ScreenReadTally,
  type Summary,
  type Tallies,
  TRAFFIC_KINDS,
  type TrafficKind,
} from './types';

export const DISMISSAL_MINUTES = 30;
const DROPOFF_MINUTES = 30;
/** The routes of the lists the staff screens read. */
const SCREEN_ROUTES = [
  'listQueue',
  'activeBatches',
  'listBatches',
  'batchVehicles',
  'teacherStudents',
  'readyStudents',
  'listAlerts',
] as const;
const SCREEN_LABELS = SCREEN_ROUTES.map((route) => `http/${route}`);

/** What the screens read in a rush window, and per event (projected to a real dismissal). */
export const screenReadsOf = (
  rush: RushFigures,
  reads: ScreenReadTally,
  channel: string,
  projection: { events: number; loadReadUnits: number; pollsPerMinute: Record<string, number> },
): ScreenReads => {
  const { window } = rush;
  const events = publishedTo(window, channel);
  const byRoute: Record<string, { calls: number; readUnits: number }> = {};
  for (const route of SCREEN_ROUTES) {
    const counters = window[`http/${route}`];
    if (counters)
      byRoute[route] = {
        calls: counters['lambda.invocations'] ?? 0,
        readUnits: counters['ddb.readUnits'] ?? 0,
      };
  }
  const byReason = Object.fromEntries(READ_REASONS.map((reason) => [reason, 0])) as Record<
    ReadReason,
    number
  >;
  const pollCalls: Record<string, number> = {};
  for (const [route, reasons] of Object.entries(reads.byRoute)) {
    for (const reason of READ_REASONS) byReason[reason] += reasons[reason];
    pollCalls[route] = reasons.poll;
  }
  byReason.load = 0; // loads happen before the window (reported apart)
  const readUnits = Object.values(byRoute).reduce((sum, route) => sum + route.readUnits, 0);
  const calls = Object.values(byRoute).reduce((sum, route) => sum + route.calls, 0);
  const unitsPerCall = (route: string) =>
    byRoute[route]?.calls ? (byRoute[route]?.readUnits ?? 0) / (byRoute[route]?.calls ?? 1) : 0;
  const pollUnits = Object.entries(pollCalls).reduce((sum, [route, n]) => sum + n * unitsPerCall(route), 0);
  const pollUnitsPerMinute = Object.entries(projection.pollsPerMinute).reduce(
    (sum, [route, n]) => sum + n * unitsPerCall(route),
    0,
  );
  const eventUnits = Math.max(0, readUnits - pollUnits);
  return {
    mode: rush.mode,
    cars: rush.cars,
    arrivalWindowSec: rush.arrivalWindowSec,
    seconds: round(rush.seconds, 1),
    events,
    readUnits: round(readUnits, 1),
    readUnitsPerEvent: events > 0 ? readUnits / events : 0,
    calls,
    byReason,
    byRoute,
    gaps: reads.gaps,
    failedReads: reads.failedReads,
    perDismissal:
      (events > 0 ? (eventUnits / events) * projection.events : 0) +
      pollUnitsPerMinute * DISMISSAL_MINUTES +
      projection.loadReadUnits,
  };
};

/** Each route of the rush: the clients' figures, and the meter's per call, busiest first. */
export const routeRowsOf = (routes: Record<string, RouteFigures>, window: MeterSnapshot): RouteRow[] =>
  Object.entries(routes)
    .map(([route, figures]) => {
      const counters = window[`http/${route}`];
      return {
        route,
        ...figures,
        readUnitsPerCall: perCall(counters, 'ddb.readUnits'),
        writeUnitsPerCall: perCall(counters, 'ddb.writeUnits'),
        dynamoCallsPerCall: perCall(counters, 'ddb.calls'),
        roundTripsPerCall: perCall(counters, 'ddb.roundTrips'),
        messagesPerCall: perCall(counters, 'live.messages'),
        handlerMsPerCall: perCall(counters, 'lambda.ms'),
        handlerCpuMsPerCall: perCall(counters, 'lambda.cpuMs'),
        operations: operationsOf(counters),
      };
    })
    .sort((a, b) => b.calls - a.calls);

/** The WebSocket handlers (every meter label but the HTTP routes) in the rush. */
export const handlerRowsOf = (window: MeterSnapshot): HandlerRow[] =>
  Object.entries(window)
    .filter(([label]) => !label.startsWith('http/'))
    .map(([handler, counters]) => ({
      handler,
      invocations: counters['lambda.invocations'] ?? 0,
      readUnits: counters['ddb.readUnits'] ?? 0,
      writeUnits: counters['ddb.writeUnits'] ?? 0,
      messages: counters['live.messages'] ?? 0,
      handlerMsPerCall: perCall(counters, 'lambda.ms'),
    }));

export const parentFiguresOf = (
  parents: Tallies['parents'],
  deliveryMs: Summary,
  statusCalls: MeterCounters | undefined,
): ParentFigures => {
  const messages = Object.values(parents.byType).reduce((sum, n) => sum + n, 0);
  const readUnits = statusCalls?.['ddb.readUnits'] ?? 0;
  return {
    phones: parents.phones,
    messages,
    byType: parents.byType,
    messagesPerPhone: parents.phones > 0 ? round(messages / parents.phones, 1) : 0,
    leaks: parents.leaks,
    deliveryMs,
    reads: parents.reads,
    polls: parents.polls,
    readUnits: round(readUnits, 1),
    messageDollars: messages * AWS_PRICES.webSocketApi.perMessage,
    readDollars: readUnits * AWS_PRICES.dynamoDb.perReadUnit,
  };
};

/** The polls of a real session, per route: teachers' queue status every 5 s, every staff screen's alerts every 30 s. */
const pollsPerMinuteOf = (p: PhaseResults) => ({
  listQueue: p.setup.staff.teacher * 12,
  listAlerts: p.setup.plan.screens.staff * 2,
});

/** The cost model over what the rush measured. */
export const costOf = (p: PhaseResults): CostModel => {
  const { rush, tallies, buses } = p;
  // `$default` also ran the drivers' positions (priced apart, over a whole dismissal): the pings alone here.
  const rushFigures = allFigures(rush.window);
  const wsDefault = rushFigures['ws/default'];
  if (wsDefault && wsDefault.invocations > 0) {
    const pings = Math.max(0, wsDefault.invocations - buses.rush.driverMessages);
    rushFigures['ws/default'] = {
      invocations: pings,
      billedMs: wsDefault.billedMs * (pings / wsDefault.invocations),
      readUnits: 0,
      writeUnits: 0,
      billedMessages: pings,
    };
  }
  const screens = p.setup.plan.screens;
  return costModel({
    rush: rushFigures,
    httpBilled: Object.fromEntries(
      Object.entries(tallies.calls.routes).map(([route, figures]) => [
        route,
        { calls: figures.calls, billed: figures.billedRequests },
      ]),
    ),
    connect: p.setup.connects ? figuresOf(p.setup.connects) : undefined,
    disconnect: p.disconnects ? figuresOf(p.disconnects) : undefined,
    subscribes: p.setup.subscribes ? figuresOf(p.setup.subscribes) : undefined,
    createSession: p.warmUp.createSession ? figuresOf(p.warmUp.createSession) : undefined,
    screens: screens.staff + screens.anonymous + tallies.parents.phones,
    screenLoads: Object.fromEntries(SCREEN_LABELS.map((label) => [label, figuresOf(p.warmUp.loads[label])])),
    polls: [
      ...Object.entries(pollsPerMinuteOf(p)).map(([route, perMinute]) => ({
        label: `http/${route}`,
        callsInRush: p.afterRush.reads.byRoute[route]?.poll ?? 0,
        perMinute,
      })),
      {
        label: 'http/parentStudentStatus',
        callsInRush: tallies.parents.polls,
        perMinute: tallies.parents.phones * (60_000 / PARENT_STATUS_POLL_MS),
      },
    ],
    screenLabels: SCREEN_LABELS,
    cars: rush.cars,
    rushMinutes: rush.seconds / 60,
    pingsSent: tallies.pingsSent,
    dismissalMinutes: DISMISSAL_MINUTES,
    dropoffMinutes: DROPOFF_MINUTES,
    dismissalsPerMonth: 20,
    dropoffsPerMonth: 20,
    bus: { buses: buses.buses, mapScreens: buses.viewers + buses.adminScreens },
  });
};

/** The report: every figure of the run, from the phases' figures alone. */
export const assembleReport = (p: PhaseResults): BenchReport => {
  const { setup, warmUp, rush, afterRush, baseline, floor, tallies } = p;
  const channel = setup.staffChannel;
  const window = rush.window;
  const staffScreens = setup.plan.screens.staff;
  const sumLoads = (counter: string) =>
    SCREEN_LABELS.reduce((sum, label) => sum + (warmUp.loads[label]?.[counter] ?? 0), 0);
  const loadReadUnits = sumLoads('ddb.readUnits');
  const projection = {
    events: publishedTo(window, channel),
    loadReadUnits,
    pollsPerMinute: pollsPerMinuteOf(p),
  };
  const screenReads = screenReadsOf(rush, afterRush.reads, channel, projection);
  const baselineReads = baseline ? screenReadsOf(baseline, baseline.reads, channel, projection) : null;
  const putP50 = Math.min(...floor.put.map((put) => put.latencyMs.p50));
  const broadcastP99 = Math.min(...floor.broadcast.map((broadcast) => broadcast.latencyMs.p99));
  const { overall } = tallies.calls;
  const adds = window['http/addToQueue'];
  const addCalls = adds?.['lambda.invocations'] ?? 0;
  const addWrites = adds?.['ddb.writeUnits'] ?? 0;
  const addSequenceWrites = adds?.['ddb.sequenceWriteUnits'] ?? 0;
  const addRecordWrites = adds?.['ddb.recordWriteUnits'] ?? 0;
  const addKeyWrites = adds?.['ddb.idempotencyWriteUnits'] ?? 0;
  const expected = p.publishedToStaff;
  const received = tallies.staff.received;
  const wanted = tallies.staff.expected;
  const narrowed = tallies.staff.kinds.flatMap((kind, i) => (kind === 'teacher' ? [i] : []));
  const sumAt = (list: readonly number[], at: readonly number[]) =>
    at.reduce((sum, i) => sum + (list[i] ?? 0), 0);
  const cost = costOf(p);
  const mapScreens = p.buses.viewers + p.buses.adminScreens;
  const busesDismissal = {
    coalesced: busDismissal(p.buses.rush, connectionsOf(p), DISMISSAL_MINUTES, mapScreens),
    naive: busDismissal(p.buses.naive, connectionsOf(p), DISMISSAL_MINUTES, mapScreens),
  };
  return {
    startedAt: p.startedAt,
    buses: {
      ...p.buses,
      dismissal: busesDismissal,
      dismissalMinutes: DISMISSAL_MINUTES,
    },
    scale: p.scale,
    machine: p.machine,
    plan: setup.plan,
    seed: setup.seed,
    setup: {
      ms: setup.ms,
      logins: tallies.calls.login?.calls ?? 0,
      loginLatencyMs: tallies.calls.login?.latencyMs ?? summarize([]),
    },
    rush: {
      mode: rush.mode,
      seconds: round(rush.seconds, 1),
      timedOut: rush.timedOut,
      counts: rush.counts,
      unexpectedAnswers: rush.unexpectedAnswers,
      networkErrors: tallies.calls.networkErrors,
      serverErrors: tallies.calls.serverErrors,
      leftInQueue: afterRush.leftInQueue,
      requests: floor.requests,
      requestsPerSecond: round(floor.requestsPerSecond, 1),
    },
    api: { overall, routes: routeRowsOf(tallies.calls.routes, window) },
    handlers: handlerRowsOf(window),
    live: {
      deliveryMs: rush.deliveryMs,
      publishedToStaff: expected,
      staffScreens,
      expectedPerScreen: expected,
      receivedMin: Math.min(...received),
      receivedMax: Math.max(...received),
      narrowedScreens: narrowed.length,
      narrowedExpected: sumAt(wanted, narrowed),
      narrowedReceived: sumAt(received, narrowed),
      expected: wanted.reduce((sum, n) => sum + n, 0),
      lost: received.reduce((sum, n, i) => sum + Math.max(0, (wanted[i] ?? expected) - n), 0),
      extra: received.reduce((sum, n, i) => sum + Math.max(0, n - (wanted[i] ?? expected)), 0),
      outside: tallies.staff.outside,
      crossed: tallies.crossed + p.buses.crossed,
      messagesPerCar: messagesPerCarOf(rush.traffic, rush.cars),
      unstamped: tallies.staff.unstamped,
      anonymousScreens: tallies.anonymous.screens,
      anonymousEvents: tallies.anonymous.events,
      leakedQueueEvents: tallies.anonymous.queueEvents,
      messagesSent: floor.rushMessages,
      messagesPerSecond: round(floor.rushMessages / rush.seconds, 1),
      averageMessageBytes: floor.messageBytes,
      eventsPerSecond: round(floor.eventsPerSecond, 1),
      byType: tallies.staff.byType,
    },
    parents: parentFiguresOf(tallies.parents, rush.parentDeliveryMs, window['http/parentStudentStatus']),
    screens: {
      staff: setup.staff,
      loads: { calls: sumLoads('lambda.invocations'), readUnits: round(loadReadUnits, 1) },
      rush: screenReads,
      baseline: baselineReads,
      ratio:
        baselineReads && baselineReads.readUnitsPerEvent > 0
          ? screenReads.readUnitsPerEvent / baselineReads.readUnitsPerEvent
          : null,
    },
    dynamo: {
      readUnits: sumOf(window, 'ddb.readUnits'),
      writeUnits: sumOf(window, 'ddb.writeUnits'),
      estimatedWriteUnits: sumOf(window, 'ddb.estimatedWriteUnits'),
      writeUnitsPerCarAdded: addCalls > 0 ? addWrites / addCalls : 0,
      queueWriteUnitsPerCarAdded:
        addCalls > 0 ? (addWrites - addSequenceWrites - addRecordWrites - addKeyWrites) / addCalls : 0,
      recordWriteUnitsPerCarAdded: addCalls > 0 ? addRecordWrites / addCalls : 0,
      idempotencyWriteUnitsPerCarAdded: addCalls > 0 ? addKeyWrites / addCalls : 0,
      sequenceWriteUnitsPerEvent:
        publishedTo(window, channel) > 0
          ? sumOf(window, 'ddb.sequenceWriteUnits') / publishedTo(window, channel)
          : 0,
      guarantees: {
        record: sumOf(window, 'ddb.recordWriteUnits'),
        idempotency: sumOf(window, 'ddb.idempotencyWriteUnits'),
        sequence: sumOf(window, 'ddb.sequenceWriteUnits'),
      },
      queueReads: { early: warmUp.early, late: afterRush.late },
      sessionReport: p.sessionReport,
      addToBatch: p.addToBatch,
    },
    memory: { server: rush.serverMemory, generatorPeakRssMb: p.generatorPeakRssMb },
    cpu: rush.cpu,
    timeline: rush.timeline,
    floor: {
      put: floor.put,
      broadcast: floor.broadcast,
      putP50Ms: putP50,
      broadcastP99Ms: broadcastP99,
      apiP50OverPutP50: putP50 > 0 ? overall.p50 / putP50 : 0,
      fanoutP99OverBroadcastP99: broadcastP99 > 0 ? rush.deliveryMs.p99 / broadcastP99 : 0,
    },
    cost,
    costVsFloor: costVsFloorOf(cost, busesDismissal.coalesced),
  };
};

/** The bus fleet's connections: the drivers and every map screen (map-link viewers and admin maps). */
const connectionsOf = (p: PhaseResults) => p.buses.buses + p.buses.viewers + p.buses.adminScreens;

/** Messages in and out per car of the rush, per kind of connection. */
export const messagesPerCarOf = (traffic: Record<TrafficKind, KindTraffic>, cars: number): KindMessages[] =>
  TRAFFIC_KINDS.map((kind) => ({
    kind,
    ...traffic[kind],
    outPerCar: cars > 0 ? round(traffic[kind].out / cars, 2) : 0,
    inPerCar: cars > 0 ? round(traffic[kind].in / cars, 2) : 0,
  }));

/**
 * A dismissal as measured (its staff screens, parents and buses) over the
 * floor the specification's own intervals set under it (`CostModel.floor`:
 * pings and pongs, polls, the drivers' positions, one bus message per map
 * screen per second, connection minutes).
 */
export const costVsFloorOf = (cost: CostModel, buses: Priced) => {
  const dismissal = cost.dismissal.dollars.total + buses.dollars.total;
  const floor = cost.floor.dollars.total;
  return { dismissal, floor, ratio: floor > 0 ? dismissal / floor : 0 };
};
