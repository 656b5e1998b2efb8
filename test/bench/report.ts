/** The report as readable text: a header, then one section per part of the run, each from its own formatter. */
import { AWS_PRICES } from './aws-prices';
import { bundleLines } from './bundles';
import { callLines } from './calls';
import { ms, n, table, units, usd } from './format';
import { screenLines } from './report-screens';
import type { BenchReport, BudgetCheck, Priced } from './types';

/** The cost table: usage, then dollars, a column per projection. */
const costRows = (columns: Priced[]): string[][] => {
  const usage = (pick: (p: Priced) => number, format: (v: number) => string) =>
    columns.map((p) => format(pick(p)));
  return [
    ['Lambda requests', ...usage((p) => p.usage.lambdaRequests, n)],
    [
      'Lambda GB-seconds (arm64, 512 MB)',
      ...usage(
        (p) => p.usage.lambdaGbSeconds,
        (v) => v.toFixed(1),
      ),
    ],
    ['HTTP API requests', ...usage((p) => p.usage.httpApiRequests, n)],
    ['WebSocket messages (32 KB units)', ...usage((p) => p.usage.webSocketMessages, n)],
    ['WebSocket connection minutes', ...usage((p) => p.usage.connectionMinutes, n)],
    ['DynamoDB read units', ...usage((p) => p.usage.readUnits, n)],
    ['DynamoDB write units', ...usage((p) => p.usage.writeUnits, n)],
    ['$ Lambda requests', ...usage((p) => p.dollars.lambdaRequests, usd)],
    ['$ Lambda duration', ...usage((p) => p.dollars.lambdaDuration, usd)],
    ['$ HTTP API', ...usage((p) => p.dollars.httpApi, usd)],
    ['$ WebSocket messages', ...usage((p) => p.dollars.webSocketMessages, usd)],
    ['$ WebSocket connection minutes', ...usage((p) => p.dollars.connectionMinutes, usd)],
    ['$ DynamoDB reads', ...usage((p) => p.dollars.dynamoDbReads, usd)],
    ['$ DynamoDB writes', ...usage((p) => p.dollars.dynamoDbWrites, usd)],
    ['$ total', ...usage((p) => p.dollars.total, usd)],
  ];
};

/** The run, the school, the setup and the rush in a few lines. */
const headerLines = (report: BenchReport): string[] => {
  const { plan, rush } = report;
  const c = rush.counts;
  const out: string[] = [];
  out.push(
    `Curbside dismissal-rush benchmark — scale ${report.scale} (${report.machine.cpus} CPUs, load average ${report.machine.loadAverage.join(' ')} at start, Node ${report.machine.node}, ${report.startedAt})`,
  );
  out.push(
    `School: ${n(report.seed.students)} students, ${n(plan.cars)} cars (+${plan.probeCars} for the read probe), ` +
      `${report.seed.staff} staff (${plan.front} front, ${plan.back} back, ${plan.teachers} teachers), ` +
      `${report.seed.classrooms} classrooms; seeded in ${(report.seed.ms / 1000).toFixed(1)} s (${n(report.seed.writes)} requests)`,
  );
  out.push(
    `Setup: ${report.setup.logins} sign-ins (p50 ${ms(report.setup.loginLatencyMs.p50)} ms, scrypt), ` +
      `${plan.screens.staff} staff + ${plan.screens.anonymous} anonymous screens, in ${(report.setup.ms / 1000).toFixed(1)} s`,
  );
  out.push(
    `Rush: arrivals over ${plan.arrivalWindowSec} s, done in ${rush.seconds} s; ${n(rush.requests)} API calls ` +
      `(${rush.requestsPerSecond}/s)${rush.timedOut ? ' — TIMED OUT' : ''}`,
  );
  out.push(
    `  queued ${c.queued}, batches ${c.batchesCompleted}/${c.batchesCreated} completed, add-to-batch ${c.batched}, ` +
      `completed in batches ${c.completedInBatches}, walk-up pickups ${c.walkUpCompleted}, overflow ${c.overflowed} ` +
      `(dismissed ${c.dismissed}), releases ${c.released}, buses ${c.busesCompleted}/${c.busesQueued} completed, ` +
      `released by way home: ${c.walkersReleased} walkers, ${c.busRidersReleased} bus riders, completed anyway ${c.completedAnyway}, 409s ${c.conflicts}, ` +
      `unexpected ${c.unexpected}, left in queue ${rush.leftInQueue}`,
  );
  for (const answer of rush.unexpectedAnswers) out.push(`  ! ${answer}`);
  return out;
};

/** API latency and cost per call, per route, and the WebSocket handlers. */
const apiLines = (report: BenchReport): string[] => {
  const { api } = report;
  const out: string[] = [];
  out.push(
    table(
      [
        'route',
        'calls',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        'statuses',
        'RCU/call',
        'WCU/call',
        'DDB calls',
        'msgs/call',
        'handler ms',
      ],
      [
        ...api.routes.map((r) => [
          r.route,
          n(r.calls),
          ms(r.latencyMs.p50),
          ms(r.latencyMs.p95),
          ms(r.latencyMs.p99),
          ms(r.latencyMs.max),
          Object.entries(r.statuses)
            .map(([status, count]) => `${status}×${count}`)
            .join(' '),
          r.readUnitsPerCall.toFixed(2),
          r.writeUnitsPerCall.toFixed(2),
          r.dynamoCallsPerCall.toFixed(1),
          r.messagesPerCall.toFixed(1),
          ms(r.handlerMsPerCall),
        ]),
        [
          'overall',
          n(api.overall.count),
          ms(api.overall.p50),
          ms(api.overall.p95),
          ms(api.overall.p99),
          ms(api.overall.max),
          '',
          '',
          '',
          '',
          '',
          '',
        ],
      ],
    ),
  );
  if (report.handlers.length > 0) {
    out.push('');
    out.push(
      table(
        ['WebSocket handler', 'invocations', 'read units', 'write units', 'messages', 'handler ms'],
        report.handlers.map((h) => [
          h.handler,
          n(h.invocations),
          units(h.readUnits),
          units(h.writeUnits),
          n(h.messages),
          ms(h.handlerMsPerCall),
        ]),
      ),
    );
  }
  return out;
};

/** The staff events: published, delivered, lost; the anonymous screens. */
const liveLines = (report: BenchReport): string[] => {
  const { live } = report;
  const out: string[] = [];
  out.push(
    `Published to the staff channel: ${n(live.publishedToStaff)} events (${live.eventsPerSecond}/s in the rush); ` +
      `each of ${live.staffScreens - live.narrowedScreens} whole-line staff screens expected ${n(live.expectedPerScreen)}; ` +
      `${live.narrowedScreens} teacher screens subscribed to their classrooms expected ${n(live.narrowedExpected)} together, received ${n(live.narrowedReceived)}; ` +
      `per screen ${n(live.receivedMin)}–${n(live.receivedMax)}: lost ${live.lost}, extra ${live.extra}; ` +
      `${live.outside} outside a teacher's classrooms; ${live.crossed} messages naming another school`,
  );
  out.push(
    `Delivery, commit to screen (${n(live.deliveryMs.count)} deliveries): p50 ${ms(live.deliveryMs.p50)} ms, ` +
      `p95 ${ms(live.deliveryMs.p95)} ms, p99 ${ms(live.deliveryMs.p99)} ms, max ${ms(live.deliveryMs.max)} ms`,
  );
  out.push(
    `postToConnection in the rush: ${n(live.messagesSent)} (${live.messagesPerSecond}/s), ${live.averageMessageBytes} bytes on average`,
  );
  out.push(
    `Anonymous screens: ${live.anonymousScreens}, events received ${live.anonymousEvents} (queue events ${live.leakedQueueEvents})`,
  );
  out.push(
    'Messages per car of the rush, by kind of connection (out: posts of the server, events and pongs; in: pings, positions, heartbeats, subscriptions):',
  );
  out.push(
    table(
      ['kind', 'connections', 'out', 'out per car', 'in', 'in per car'],
      live.messagesPerCar.map((k) => [
        k.kind,
        n(k.connections),
        n(k.out),
        k.outPerCar.toFixed(2),
        n(k.in),
        k.inPerCar.toFixed(2),
      ]),
    ),
  );
  out.push(
    `By type (all staff screens): ${Object.entries(live.byType)
      .map(([type, count]) => `${type} ${n(count)}`)
      .join(', ')}`,
  );
  return out;
};

/** The parents' messages and status reads. */
const parentLines = (report: BenchReport): string[] => {
  const { parents } = report;
  const out: string[] = [];
  out.push(
    `Parents: ${parents.phones} on the dashboard; ${n(parents.messages)} messages about their own child ` +
      `(${parents.messagesPerPhone} each: ${Object.entries(parents.byType)
        .map(([type, count]) => `${type} ${n(count)}`)
        .join(
          ', ',
        )}), ${parents.leaks} about anyone else; delivery in the rush p50 ${ms(parents.deliveryMs.p50)} ms, ` +
      `p99 ${ms(parents.deliveryMs.p99)} ms`,
  );
  out.push(
    `Parents' status reads: ${n(parents.reads)} (${n(parents.polls)} polls), ${units(parents.readUnits)} RCU; ` +
      `their share of the rush: $${parents.messageDollars.toFixed(4)} messages + $${parents.readDollars.toFixed(4)} read units ` +
      '(Lambda and HTTP requests in the cost model)',
  );
  return out;
};

/** The buses: delivery, the coalesced and naive relays, a dismissal's bus traffic. */
const busLines = (report: BenchReport): string[] => {
  const { buses } = report;
  const out: string[] = [];
  const relayLine = (label: string, figures: typeof buses.rush) =>
    `  ${label}: ${n(figures.driverMessages)} driver messages in ${figures.seconds.toFixed(0)} s, ` +
    `${n(figures.messagesOut)} bus messages out, ${figures.perViewerPerSecond.mean.toFixed(2)} per viewer per second ` +
    `(at most ${figures.perViewerPerSecond.max} in one second); ${figures.usagePerSecond.writeUnits.toFixed(1)} WCU/s, ` +
    `${figures.usagePerSecond.readUnits.toFixed(1)} RCU/s`;
  out.push(
    `Buses: ${buses.buses} at 1 Hz on the driver link, ${buses.viewers} map-link viewers and ${buses.adminScreens} admin map screens; ` +
      `position delivery (${n(buses.deliveryMs.count)}): p50 ${ms(buses.deliveryMs.p50)} ms, p99 ${ms(buses.deliveryMs.p99)} ms, ` +
      `max ${ms(buses.deliveryMs.max)} ms; ${buses.leaks} messages with a child's or family's field`,
  );
  out.push(relayLine('coalesced (the rush)', buses.rush));
  out.push(relayLine('naive (one message per position per viewer, same run)', buses.naive));
  out.push(
    `  a ${buses.dismissalMinutes}-minute dismissal of bus traffic: ${usd(buses.dismissal.coalesced.dollars.total)} coalesced ` +
      `(${n(buses.dismissal.coalesced.usage.webSocketMessages)} messages), ${usd(buses.dismissal.naive.dollars.total)} naive ` +
      `(${n(buses.dismissal.naive.usage.webSocketMessages)} messages)`,
  );
  return out;
};

/** DynamoDB as AWS bills it: units, calls per route, the read probes. */
const dynamoLines = (report: BenchReport): string[] => {
  const { api, dynamo } = report;
  const out: string[] = [];
  out.push(
    `Read units ${n(dynamo.readUnits)}, write units ${n(dynamo.writeUnits)} (of which ${n(dynamo.estimatedWriteUnits)} estimated for failed conditions); ` +
      `write units per car added ${dynamo.queueWriteUnitsPerCarAdded.toFixed(2)} for the queue + ` +
      `${dynamo.recordWriteUnitsPerCarAdded.toFixed(2)} for the record (its event, in the add's transaction) + ` +
      `${dynamo.idempotencyWriteUnitsPerCarAdded.toFixed(2)} for the Idempotency-Key (its record claimed, the answer kept) + ` +
      `${(dynamo.writeUnitsPerCarAdded - dynamo.queueWriteUnitsPerCarAdded - dynamo.recordWriteUnitsPerCarAdded - dynamo.idempotencyWriteUnitsPerCarAdded).toFixed(2)} for the event's sequence number; ` +
      `sequence numbers ${dynamo.sequenceWriteUnitsPerEvent.toFixed(2)} write units per event`,
  );
  out.push('');
  out.push(
    table(
      ['route', 'DynamoDB calls per API call (units)'],
      api.routes.map((r) => [
        r.route,
        Object.entries(r.operations)
          .map(([op, o]) => `${op} ${o.callsPerCall}× (${o.unitsPerCall})`)
          .join(', '),
      ]),
    ),
  );
  const { early, late } = dynamo.queueReads;
  out.push(
    `GET /api/queue with the same ${early.activeEntries} active cars: ${early.readUnitsPerCall.toFixed(2)} read units at ` +
      `${early.completedPickups} completed pickups, ${late.readUnitsPerCall.toFixed(2)} at ${late.completedPickups}`,
  );

  const { at50, at300 } = dynamo.addToBatch;
  out.push(
    `POST /api/batches/{id}/vehicles (add-to-batch): ${at50.readUnitsPerCall.toFixed(2)} read units per call with ${at50.waiting} cars waiting, ` +
      `${at300.readUnitsPerCall.toFixed(2)} with ${at300.waiting} (${at50.calls} and ${at300.calls} calls; DynamoDB calls per call: ` +
      `${Object.entries(at300.operations)
        .map(([op, k]) => `${op} ${k.toFixed(1)}`)
        .join(', ')})`,
  );
  return out;
};

/** The rush in windows of time. */
const timelineLines = (report: BenchReport): string[] => {
  const out: string[] = [];
  out.push(
    table(
      [
        'window',
        'API calls',
        'p50 ms',
        'p99 ms',
        'live p99',
        'server',
        'DDB Local',
        'others',
        'GET /api/queue (screens)',
        'RCU/call',
        'active cars',
        'completed',
      ],
      report.timeline.map((w) => [
        `${w.fromSec}–${w.toSec} s`,
        n(w.apiCalls),
        ms(w.apiP50Ms),
        ms(w.apiP99Ms),
        ms(w.deliveryP99Ms),
        w.serverCores.toFixed(2),
        w.dynamoLocalCores === null ? 'n/a' : w.dynamoLocalCores.toFixed(2),
        w.otherCores === null ? 'n/a' : w.otherCores.toFixed(2),
        n(w.polls),
        w.readUnitsPerCall.toFixed(2),
        w.averageActiveEntries.toFixed(1),
        n(w.completedPickupsAtEnd),
      ]),
    ),
  );
  out.push(
    '(server, DDB Local, others: CPU cores used in the window; others = every other process on the machine)',
  );
  return out;
};

/** Memory of the server process and of the load generator. */
const memoryLines = (report: BenchReport): string[] => {
  const { memory } = report;
  const out: string[] = [];
  out.push(
    `Server process (child, Curbside only): RSS ${memory.server.baselineRssMb.toFixed(0)} MB before the rush, peak ` +
      `${memory.server.peakRssMb.toFixed(0)} MB; heap used peak ${memory.server.peakHeapUsedMb.toFixed(0)} MB. ` +
      `Load generator (this process): peak RSS ${memory.generatorPeakRssMb.toFixed(0)} MB. DynamoDB Local (Java) not included.`,
  );
  return out;
};

/** Where the CPU went during the rush. */
const cpuLines = (report: BenchReport): string[] => {
  const out: string[] = [];
  const share = (part: { seconds: number; cores: number } | null) =>
    part ? `${part.seconds.toFixed(0)} s (${part.cores.toFixed(2)} cores)` : 'n/a';
  out.push(
    `${report.cpu.seconds.toFixed(0)} s on ${report.cpu.cores} cores: server ${share(report.cpu.server)}, ` +
      `DynamoDB Local ${share(report.cpu.dynamoLocal)}, load generator ${share(report.cpu.generator)}, ` +
      `everything else on the machine ${share(report.cpu.others)}; machine busy ${share(report.cpu.machineBusy)}`,
  );
  return out;
};

/** The floors and the ratios over them. */
const floorLines = (report: BenchReport): string[] => {
  const { api, live, floor } = report;
  const out: string[] = [];
  out.push(
    table(
      ['floor', 'clients', 'rate/s', 'samples', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
      [
        ...floor.put.map((put, i) => [
          `bare PutItem (${put.itemBytes} B) #${i + 1}`,
          String(put.clients),
          put.perSecond.toFixed(1),
          put.errors > 0 ? `${n(put.puts)} (${n(put.errors)} failed)` : n(put.puts),
          ms(put.latencyMs.p50),
          ms(put.latencyMs.p95),
          ms(put.latencyMs.p99),
          ms(put.latencyMs.max),
        ]),
        ...floor.broadcast.map((broadcast, i) => [
          `bare ws broadcast (${broadcast.payloadBytes} B) #${i + 1}`,
          String(broadcast.clients),
          broadcast.perSecond.toFixed(1),
          `${n(broadcast.received)}/${n(broadcast.expected)}`,
          ms(broadcast.latencyMs.p50),
          ms(broadcast.latencyMs.p95),
          ms(broadcast.latencyMs.p99),
          ms(broadcast.latencyMs.max),
        ]),
      ],
    ),
  );
  out.push(
    `API p50 ÷ bare write p50 = ${ms(api.overall.p50)} ÷ ${ms(floor.putP50Ms)} = ${floor.apiP50OverPutP50.toFixed(1)}×; ` +
      `fan-out p99 ÷ bare broadcast p99 = ${ms(live.deliveryMs.p99)} ÷ ${ms(floor.broadcastP99Ms)} = ${floor.fanoutP99OverBroadcastP99.toFixed(1)}×`,
  );
  return out;
};

/** The AWS cost: as run, a dismissal, a drop-off, a school month; the floor of the specification. */
const costLines = (report: BenchReport): string[] => {
  const { rush, cost } = report;
  const out: string[] = [];
  out.push(
    table(
      ['', `as run (${rush.seconds} s)`, 'dismissal (30 min)', 'drop-off (30 min)', 'school month (20+20)'],
      costRows([cost.asRun, cost.dismissal, cost.dropoff, cost.month]),
    ),
  );
  out.push(
    `Of a dismissal, the staff screens' reads (loads, polls, reads after a missed event): ${usd(cost.dismissalScreenReads.dollars.total)} ` +
      `(${n(cost.dismissalScreenReads.usage.readUnits)} read units, ${n(cost.dismissalScreenReads.usage.httpApiRequests)} requests).`,
  );
  const { floor: specFloor } = cost;
  out.push(
    `The specification's own intervals over a 30-minute dismissal, whatever the implementation (every socket's ping and pong every 30 s, ` +
      `the drivers' positions at 1 Hz and heartbeats every 15 s, one bus message per map screen per second, the polls, connection minutes; ` +
      `and the DynamoDB they force: one write per bus position, one read per poll; no car, no Lambda duration): ${usd(specFloor.dollars.total)} ` +
      `(${n(specFloor.usage.webSocketMessages)} WebSocket messages ${usd(specFloor.dollars.webSocketMessages)}, ` +
      `${n(specFloor.usage.connectionMinutes)} connection minutes ${usd(specFloor.dollars.connectionMinutes)}, ` +
      `${n(specFloor.usage.httpApiRequests)} HTTP requests ${usd(specFloor.dollars.httpApi)}, ` +
      `${n(specFloor.usage.lambdaRequests)} Lambda requests ${usd(specFloor.dollars.lambdaRequests)}, ` +
      `${n(specFloor.usage.writeUnits)} write units ${usd(specFloor.dollars.dynamoDbWrites)}, ` +
      `${n(specFloor.usage.readUnits)} read units ${usd(specFloor.dollars.dynamoDbReads)}).`,
  );
  const { costVsFloor } = report;
  out.push(
    `A dismissal with its buses and parents, measured: ${usd(costVsFloor.dismissal)} = ${costVsFloor.ratio.toFixed(2)}× that floor ` +
      `(${usd(cost.dismissal.dollars.total)} the car line, its screens and parents + ${usd(report.buses.dismissal.coalesced.dollars.total)} the buses).`,
  );
  const { record, idempotency, sequence } = report.dynamo.guarantees;
  const written = (units: number) => usd(units * AWS_PRICES.dynamoDb.perWriteUnit);
  out.push(
    `Of the car line's writes, its guarantees: the record ${written(record)} (${n(record)} write units, its events and the transactions they make), ` +
      `the Idempotency-Keys ${written(idempotency)} (${n(idempotency)}), the live events' sequence numbers ${written(sequence)} (${n(sequence)}); ` +
      `${written(record + idempotency + sequence)} together, ${(((record + idempotency + sequence) * AWS_PRICES.dynamoDb.perWriteUnit) / costVsFloor.floor).toFixed(3)} of the floor.`,
  );
  out.push(
    `Per car: ${usd(cost.perCar.dismissal)} a dismissal, ${usd(cost.perCar.dropoff)} a drop-off. Assumptions:`,
  );
  for (const assumption of cost.assumptions) out.push(`  - ${assumption}`);
  return out;
};

const budgetLines = (budgets: readonly BudgetCheck[]): string[] =>
  budgets.map((check) => `${check.pass ? 'PASS' : 'FAIL'}  ${check.budget}: ${check.value}`);

export const formatReport = (report: BenchReport, budgets: BudgetCheck[]): string => {
  const sections: Array<[title: string, lines: string[]]> = [
    ['API latency (client-side over HTTP, rush) and cost per call (server meter)', apiLines(report)],
    ['DynamoDB calls per request and the modelled AWS latency (issue 54)', callLines(report)],
    ['Live events', [...liveLines(report), ...parentLines(report), ...busLines(report)]],
    ['Staff screens, as the web client runs them (rush)', screenLines(report)],
    ['DynamoDB (rush, as AWS bills it)', dynamoLines(report)],
    ['The rush over time', timelineLines(report)],
    ['Memory', memoryLines(report)],
    ['CPU during the rush', cpuLines(report)],
    ['Floor (same machine, same run; ratios over the lower run)', floorLines(report)],
    ['AWS cost (list prices, us-east-1; test/bench/aws-prices.ts)', costLines(report)],
    ['Function bundles: bytes, import ms (cold start)', bundleLines(report.bundles)],
    ['Budgets (DESIGN.md)', budgetLines(budgets)],
  ];
  const out = headerLines(report);
  for (const [title, lines] of sections) out.push('', title, '═'.repeat(title.length), ...lines);
  return out.join('\n');
};
