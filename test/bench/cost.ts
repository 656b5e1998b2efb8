/**
 * The AWS cost model: prices what the run measured (request units, handler
 * durations, live messages, HTTP requests, connection minutes) with the list
 * prices of `aws-prices.ts`, then projects a real dismissal, a drop-off and a
 * school month.
 */
import { AWS_PRICES } from './aws-prices';
import type { BusWindowFigures, CostModel, LabelFigures, Priced, Usage } from './types';

export const emptyUsage = (): Usage => ({
  lambdaRequests: 0,
  lambdaGbSeconds: 0,
  httpApiRequests: 0,
  webSocketMessages: 0,
  connectionMinutes: 0,
  readUnits: 0,
  writeUnits: 0,
});

export const addUsage = (into: Usage, add: Usage, times = 1): Usage => {
  for (const key of Object.keys(into) as Array<keyof Usage>) into[key] += add[key] * times;
  return into;
};

/** One invocation-average of a label as usage; `httpBilled` per call for HTTP routes. */
export const perCall = (figures: LabelFigures | undefined, httpBilled = 0): Usage => {
  const usage = emptyUsage();
  if (!figures || figures.invocations === 0) return usage;
  const n = figures.invocations;
  usage.lambdaRequests = 1;
  usage.lambdaGbSeconds = (figures.billedMs / n / 1000) * AWS_PRICES.lambda.memoryGb;
  usage.httpApiRequests = httpBilled;
  usage.webSocketMessages = figures.billedMessages / n;
  usage.readUnits = figures.readUnits / n;
  usage.writeUnits = figures.writeUnits / n;
  return usage;
};

/** All of a label's figures as usage (not averaged). */
export const total = (figures: LabelFigures | undefined, httpBilled = 0): Usage =>
  figures && figures.invocations > 0
    ? addUsage(emptyUsage(), perCall(figures, httpBilled), figures.invocations)
    : emptyUsage();

export const price = (usage: Usage): Priced => {
  const p = AWS_PRICES;
  const dollars = {
    lambdaRequests: usage.lambdaRequests * p.lambda.perRequest,
    lambdaDuration: usage.lambdaGbSeconds * p.lambda.perGbSecondArm64,
    httpApi: usage.httpApiRequests * p.httpApi.perRequest,
    webSocketMessages: usage.webSocketMessages * p.webSocketApi.perMessage,
    connectionMinutes: usage.connectionMinutes * p.webSocketApi.perConnectionMinute,
    dynamoDbReads: usage.readUnits * p.dynamoDb.perReadUnit,
    dynamoDbWrites: usage.writeUnits * p.dynamoDb.perWriteUnit,
    total: 0,
  };
  dollars.total = Object.values(dollars).reduce((sum, value) => sum + value, 0);
  return { usage, dollars };
};

/**
 * A dismissal's bus traffic at AWS prices, from a window's rates, over
 * `minutes`; `connections`: the buses and every map screen (viewers and admin
 * maps); `mapScreens`: the map screens, each pinging every 30 s (a ping in, a
 * pong out, one `$default` invocation).
 */
export const busDismissal = (
  figures: BusWindowFigures,
  connections: number,
  minutes: number,
  mapScreens = 0,
): Priced => {
  const seconds = minutes * 60;
  const perSecond = (n: number) => n / Math.max(1, figures.seconds);
  const pings = (mapScreens / PING_EVERY_MINUTES) * minutes;
  return price({
    lambdaRequests: perSecond(figures.driverMessages) * seconds + pings,
    lambdaGbSeconds: figures.usagePerSecond.lambdaGbSeconds * seconds,
    httpApiRequests: 0,
    // In (the drivers') and out (to every viewer), and the map screens' pings and pongs.
    webSocketMessages: perSecond(figures.driverMessages + figures.messagesOut) * seconds + 2 * pings,
    connectionMinutes: connections * minutes,
    readUnits: figures.usagePerSecond.readUnits * seconds,
    writeUnits: figures.usagePerSecond.writeUnits * seconds,
  });
};

export interface CostInput {
  /** Meter figures of the rush window, per handler label (`http/addToQueue`, `ws/default`, …). */
  rush: Record<string, LabelFigures>;
  /** HTTP API requests of the rush per route, in 512 KB increments, as the clients counted them. */
  httpBilled: Record<string, { calls: number; billed: number }>;
  /** Average `$connect` and `$disconnect` of a screen. */
  connect: LabelFigures | undefined;
  disconnect: LabelFigures | undefined;
  /** Every teacher screen's subscription to its classrooms, all together (`$default`; each an inbound message too). */
  subscribes?: LabelFigures | undefined;
  createSession: LabelFigures | undefined;
  /** Every screen's connection (staff and anonymous). */
  screens: number;
  /** The staff screens' first reads of their lists (once per dismissal), per label. */
  screenLoads: Record<string, LabelFigures>;
  /**
   * The staff screens' polls (the specification's intervals): per route label,
   * the calls they made in the rush window and the calls a minute of a real session makes.
   */
  polls: Array<{ label: string; callsInRush: number; perMinute: number }>;
  /** Routes whose calls are the staff screens' reads (their share of a dismissal is reported apart). */
  screenLabels: readonly string[];
  cars: number;
  rushMinutes: number;
  /** Pings the screens sent during the rush (inbound messages, billed too). */
  pingsSent: number;
  /** A real dismissal and a real drop-off, in minutes of wall time. */
  dismissalMinutes: number;
  dropoffMinutes: number;
  dismissalsPerMonth: number;
  dropoffsPerMonth: number;
  /** The bus fleet of the run (0 buses: none): drivers and the map screens (map-link viewers and admin maps). */
  bus?: { buses: number; mapScreens: number };
}

const PING_EVERY_MINUTES = 0.5;
/** The driver page's heartbeat (specification: every 15 s) and position rate (the benchmark's buses: 1 Hz). */
const HEARTBEATS_PER_MINUTE = 4;
const POSITIONS_PER_MINUTE = 60;
/**
 * The DynamoDB the specification's intervals force (issue 54): a bus position
 * is shared state between Lambda invocations, so one write (1 unit) each; a
 * poll reads at least once, the smallest read DynamoDB bills (half a unit,
 * eventually consistent, up to 4 KB).
 */
const WRITE_UNITS_PER_POSITION = 1;
const READ_UNITS_PER_POLL = 0.5;

/** The specification's floor of a dismissal of `minutes` (see `CostModel.floor`). */
export const specFloor = (input: {
  /** Car-line screens: staff, anonymous, parents. */
  screens: number;
  /** Calls a minute of every poll the specification sets. */
  pollsPerMinute: number;
  buses: number;
  mapScreens: number;
  minutes: number;
}): Priced => {
  const sockets = input.screens + input.buses + input.mapScreens;
  const pings = (sockets / PING_EVERY_MINUTES) * input.minutes;
  const fromDrivers = input.buses * (HEARTBEATS_PER_MINUTE + POSITIONS_PER_MINUTE) * input.minutes;
  const toMaps = input.buses > 0 ? input.mapScreens * 60 * input.minutes : 0;
  const polls = input.pollsPerMinute * input.minutes;
  return price({
    lambdaRequests: pings + fromDrivers + polls,
    lambdaGbSeconds: 0,
    httpApiRequests: polls,
    webSocketMessages: 2 * pings + fromDrivers + toMaps,
    connectionMinutes: sockets * input.minutes,
    readUnits: polls * READ_UNITS_PER_POLL,
    writeUnits: input.buses * POSITIONS_PER_MINUTE * input.minutes * WRITE_UNITS_PER_POSITION,
  });
};

export const costModel = (input: CostInput): CostModel => {
  const httpOf = (label: string) => {
    const route = label.replace(/^http\//, '');
    const billed = input.httpBilled[route];
    return billed && billed.calls > 0 ? billed.billed / billed.calls : 1;
  };
  const labelUsage = (label: string) =>
    total(input.rush[label], label.startsWith('http/') ? httpOf(label) : 0);
  const loadsUsage = () => {
    const usage = emptyUsage();
    for (const label of Object.keys(input.screenLoads)) addUsage(usage, total(input.screenLoads[label], 1));
    return usage;
  };

  // As run: everything the rush window measured, the screens' connects, loads, disconnects and minutes.
  const asRunUsage = emptyUsage();
  for (const label of Object.keys(input.rush)) addUsage(asRunUsage, labelUsage(label));
  asRunUsage.webSocketMessages += input.pingsSent;
  asRunUsage.connectionMinutes += input.screens * input.rushMinutes;
  const connectAndLeave = addUsage(perCall(input.connect), perCall(input.disconnect));
  addUsage(asRunUsage, connectAndLeave, input.screens);
  // The teachers' subscriptions: once per dismissal, each message in billed as the answer out is.
  const subscribes = total(input.subscribes);
  subscribes.webSocketMessages += input.subscribes?.invocations ?? 0;
  addUsage(asRunUsage, subscribes);
  addUsage(asRunUsage, perCall(input.createSession, 1));
  addUsage(asRunUsage, loadsUsage());

  // Time-driven work, per minute of a real session: the screens' polls, pings and pongs, connection minutes.
  const ping = perCall(input.rush['ws/default']);
  ping.webSocketMessages += 1; // the ping itself is an inbound message
  const pollsOver = (minutes: number, only?: readonly string[]) => {
    const usage = emptyUsage();
    for (const poll of input.polls) {
      if (only && !only.includes(poll.label)) continue;
      addUsage(usage, perCall(input.rush[poll.label], httpOf(poll.label)), poll.perMinute * minutes);
    }
    return usage;
  };
  const timeDriven = (minutes: number) => {
    const usage = pollsOver(minutes);
    addUsage(usage, ping, (input.screens / PING_EVERY_MINUTES) * minutes);
    usage.connectionMinutes = input.screens * minutes;
    return usage;
  };
  /** A label's event-driven work in the rush: its calls less those that were polls. */
  const eventDriven = (label: string) => {
    const usage = labelUsage(label);
    const polled = input.polls
      .filter((poll) => poll.label === label)
      .reduce((n, poll) => n + poll.callsInRush, 0);
    const calls = input.rush[label]?.invocations ?? 0;
    if (polled === 0 || calls === 0) return usage;
    return addUsage(usage, perCall(input.rush[label], httpOf(label)), -Math.min(polled, calls));
  };

  // A real dismissal: the event-driven work as measured, the time-driven work over its real length.
  const dismissal = emptyUsage();
  for (const label of Object.keys(input.rush)) {
    if (label === 'ws/default') continue;
    addUsage(dismissal, eventDriven(label));
  }
  addUsage(dismissal, timeDriven(input.dismissalMinutes));
  addUsage(dismissal, connectAndLeave, input.screens);
  addUsage(dismissal, subscribes);
  addUsage(dismissal, perCall(input.createSession, 1));
  addUsage(dismissal, loadsUsage());

  const screenReads = loadsUsage();
  for (const label of input.screenLabels) if (input.rush[label]) addUsage(screenReads, eventDriven(label));
  addUsage(screenReads, pollsOver(input.dismissalMinutes, input.screenLabels));

  // A drop-off: each car queued on arrival and completed on its own (no batches, no releases).
  const dropoff = emptyUsage();
  const add = perCall(input.rush['http/addToQueue'], httpOf('http/addToQueue'));
  const complete = input.rush['http/setQueueStatus']
    ? perCall(input.rush['http/setQueueStatus'], httpOf('http/setQueueStatus'))
    : add;
  addUsage(dropoff, add, input.cars);
  addUsage(dropoff, complete, input.cars);
  addUsage(dropoff, timeDriven(input.dropoffMinutes));
  addUsage(dropoff, connectAndLeave, input.screens);
  addUsage(dropoff, subscribes);
  addUsage(dropoff, perCall(input.createSession, 1));
  addUsage(dropoff, loadsUsage());

  const month = addUsage(
    addUsage(emptyUsage(), dismissal, input.dismissalsPerMonth),
    dropoff,
    input.dropoffsPerMonth,
  );
  const pricedDismissal = price(dismissal);
  const pricedDropoff = price(dropoff);
  const pollText = input.polls
    .map((poll) => `${poll.label.replace(/^http\//, '')} ${poll.perMinute}/min`)
    .join(', ');
  return {
    asRun: price(asRunUsage),
    dismissal: pricedDismissal,
    dismissalScreenReads: price(screenReads),
    dropoff: pricedDropoff,
    month: price(month),
    perCar: {
      dismissal: pricedDismissal.dollars.total / Math.max(1, input.cars),
      dropoff: pricedDropoff.dollars.total / Math.max(1, input.cars),
    },
    floor: specFloor({
      screens: input.screens,
      pollsPerMinute: input.polls.reduce((sum, poll) => sum + poll.perMinute, 0),
      buses: input.bus?.buses ?? 0,
      mapScreens: input.bus?.mapScreens ?? 0,
      minutes: input.dismissalMinutes,
    }),
    assumptions: [
      `Lambda duration: each invocation's measured handler wall time on this machine, rounded up to 1 ms, at ${AWS_PRICES.lambda.memoryGb * 1024} MB arm64. A 512 MB Lambda has about a third of a vCPU, and DynamoDB over the network is slower than DynamoDB Local, so real durations may be longer; they are a small share of the total.`,
      'DynamoDB units: what DynamoDB Local reported per call (indexes included), transactions counted twice, failed conditional writes 1 unit per item (estimated), reads at least 0.5 (eventual) or 1 (strong) unit.',
      `A dismissal: the rush's event-driven work as measured (queue adds, batches, overflow, releases, walk-up pickups, the live events and their sequence numbers, and the staff screens' reads after a missed event), plus time-driven work over ${input.dismissalMinutes} minutes of real time: the staff screens' polls at the specification's intervals (${pollText}), ${input.screens} screens pinging every 30 s (ping in, pong out, one $default invocation) and connected the whole time (connection minutes), each staff screen reading its lists once when it opens, each screen connecting and disconnecting once, each teacher screen subscribing to its classrooms once, one session created.`,
      `A drop-off (${input.dropoffMinutes} minutes, morning_dropoff session): every car queued on arrival and completed on its own (POST /api/queue and PUT /api/queue/{id}/status, at the measured per-call cost${input.rush['http/setQueueStatus'] ? '' : ' — no walk-up completion was measured, so the add is used for both'}), no batches and no releases; the same screens connected, polling and pinging.`,
      `A school month: ${input.dismissalsPerMonth} dismissals and ${input.dropoffsPerMonth} drop-offs. Not included: the auto-end schedule (one small invocation a minute per deployment, shared by every school), CloudFront and S3 for the web app, CloudWatch Logs, storage and point-in-time recovery of the table (a few MB per school), data transfer.`,
      "As run: the compressed rush itself (its minutes of wall time), priced as measured, with the staff screens' loads.",
    ],
  };
};
