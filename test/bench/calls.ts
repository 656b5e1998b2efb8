/**
 * DynamoDB calls per request, their sequential round trips and the latency a
 * school's tablet would see in AWS (issue 54, DESIGN.md "Calls per request").
 */
import { CAR_LINE_CHANGES } from '@curbside/api';
import { ms } from './format';
import type { BenchReport, BudgetCheck, RouteRow } from './types';

/**
 * One DynamoDB round trip from a Lambda function in the same region, in ms.
 * AWS publishes DynamoDB as "single-digit millisecond performance at any
 * scale" (What is Amazon DynamoDB?, docs.aws.amazon.com/amazondynamodb/latest/developerguide/Introduction.html);
 * 5 ms is the middle of that range: a small GetItem or Query over a kept-alive
 * connection in-region is typically 2–5 ms, a transaction somewhat more.
 */
export const DYNAMODB_ROUND_TRIP_MS = 5;

/**
 * Lambda gives CPU in proportion to memory, a whole vCPU at 1,769 MB (AWS
 * Lambda developer guide, "Configure Lambda function memory"): at 512 MB a
 * function has 512/1769 ≈ 0.29 of a vCPU, so CPU work measured on one core
 * here takes about 3.46 times as long (taking a core here as one vCPU).
 */
export const LAMBDA_MB = 512;
export const LAMBDA_CPU_SLOWDOWN = 1769 / LAMBDA_MB;

export const CHANGE_CALLS_BUDGET = 6;
export const CHANGE_ROUND_TRIPS_BUDGET = 4;
export const POLL_CALLS_BUDGET = 2;
/** Completing a batch of N cars: 6 + N/25 calls (its writes may need more than one transaction). */
export const BATCH_CARS_PER_EXTRA_CALL = 25;
export const MODELLED_P50_BUDGET_MS = 50;

/** The car-line changes the budget covers (routes of the rush; a batch's completion is `updateBatch`). */
export const CHANGE_ROUTES = CAR_LINE_CHANGES;
export const POLL_ROUTES = ['listQueue', 'parentStudentStatus', 'listAlerts'] as const;

/**
 * The server process's CPU per call of a route, in ms: its CPU of the rush
 * window (the handlers, and also the emulated API Gateway's HTTP and WebSocket
 * servers, the bus messages and the warm-up) shared among the invocations by
 * their wall time, so a route that waits long on DynamoDB Local or behind a
 * bulk release is charged CPU it did not use. Printed beside the handler's own
 * CPU (`RouteRow.handlerCpuMsPerCall`), which the modelled latency is based on.
 * DynamoDB Local's CPU is its own process's and in neither.
 */
export const cpuMsPerCall = (report: BenchReport, row: RouteRow): number => {
  const wall = [...report.api.routes, ...report.handlers].reduce(
    (sum, r) => sum + r.handlerMsPerCall * ('calls' in r ? r.calls : r.invocations),
    0,
  );
  const cpuMs = (report.cpu?.server?.seconds ?? 0) * 1000;
  return wall > 0 ? row.handlerMsPerCall * (cpuMs / wall) : 0;
};

/**
 * What a tablet would wait for in AWS: the round trips at DynamoDB's latency, and the
 * handler's own CPU (the meter's, per invocation) on a 512 MB Lambda.
 */
export const modelledAwsMs = (row: RouteRow): number =>
  row.roundTripsPerCall * DYNAMODB_ROUND_TRIP_MS + row.handlerCpuMsPerCall * LAMBDA_CPU_SLOWDOWN;

/** Cars per completed batch in the rush (the N of 6 + N/25). */
const carsPerBatch = (report: BenchReport) =>
  report.rush.counts.batchesCompleted > 0
    ? report.rush.counts.completedInBatches / report.rush.counts.batchesCompleted
    : 0;

const callBudgetOf = (report: BenchReport, route: string) =>
  route === 'updateBatch'
    ? CHANGE_CALLS_BUDGET + carsPerBatch(report) / BATCH_CARS_PER_EXTRA_CALL
    : CHANGE_CALLS_BUDGET;

const rowsOf = (report: BenchReport, routes: readonly string[]) =>
  report.api.routes.filter((row) => routes.includes(row.route));

export const callLines = (report: BenchReport): string[] => {
  const rows = rowsOf(report, [...CHANGE_ROUTES, ...POLL_ROUTES]);
  const header = `${'route'.padEnd(20)} ${'calls/call'.padStart(10)} ${'trips/call'.padStart(10)} ${'CPU ms'.padStart(7)} ${'share ms'.padStart(8)} ${'p50 ms'.padStart(7)} ${'AWS ms'.padStart(7)}`;
  return [
    `Modelled AWS latency = round trips × ${DYNAMODB_ROUND_TRIP_MS} ms (DynamoDB in-region, "single-digit milliseconds": AWS's DynamoDB developer guide) ` +
      `+ the handler's own CPU per call × ${LAMBDA_CPU_SLOWDOWN.toFixed(2)} (a ${LAMBDA_MB} MB Lambda has ${LAMBDA_MB}/1769 of a vCPU: AWS Lambda developer guide). ` +
      "CPU ms: the handler's own CPU per call, measured per invocation (the thread's CPU time while its code runs, read where the thread's work changes hands, not wall time: " +
      "the SDK's serde and signing and the in-process posts in its context, and the event loop's own work between its callbacks and the next one's; " +
      "not the emulated API Gateway's parsing before it nor the socket writes after. Since h54n the clock is brought up to date at each read: before, it moved at the kernel's tick and missed much of a short burst). " +
      "Share ms: the server process's CPU in the rush shared among its invocations by wall time (gateway, sockets and bus messages included), not used in the model.",
    header,
    ...rows.map(
      (row) =>
        `${row.route.padEnd(20)} ${row.dynamoCallsPerCall.toFixed(2).padStart(10)} ${row.roundTripsPerCall.toFixed(2).padStart(10)} ` +
        `${ms(row.handlerCpuMsPerCall).padStart(7)} ${ms(cpuMsPerCall(report, row)).padStart(8)} ${ms(row.latencyMs.p50).padStart(7)} ${ms(modelledAwsMs(row)).padStart(7)}`,
    ),
  ];
};

/** DESIGN.md's calls-per-request budgets, checked route by route (a route the rush did not call is left out). */
export const callBudgetChecks = (report: BenchReport): BudgetCheck[] => {
  const changes = rowsOf(report, CHANGE_ROUTES);
  const polls = rowsOf(report, POLL_ROUTES);
  const over = (rows: RouteRow[], pass: (row: RouteRow) => boolean, show: (row: RouteRow) => string) => {
    const failing = rows.filter((row) => !pass(row));
    return {
      value:
        failing.length === 0
          ? `${rows.length} routes, all within`
          : `over: ${failing.map((row) => `${row.route} ${show(row)}`).join(', ')}`,
      pass: rows.length > 0 && failing.length === 0,
    };
  };
  return [
    {
      budget: `Every car-line change at most ${CHANGE_CALLS_BUDGET} DynamoDB calls (completing a batch of N cars ${CHANGE_CALLS_BUDGET} + N/${BATCH_CARS_PER_EXTRA_CALL})`,
      ...over(
        changes,
        (row) => row.dynamoCallsPerCall <= callBudgetOf(report, row.route) + 1e-9,
        (row) => row.dynamoCallsPerCall.toFixed(1),
      ),
    },
    {
      budget: `Every car-line change at most ${CHANGE_ROUND_TRIPS_BUDGET} sequential DynamoDB round trips`,
      ...over(
        changes,
        (row) => row.roundTripsPerCall <= CHANGE_ROUND_TRIPS_BUDGET + 1e-9,
        (row) => row.roundTripsPerCall.toFixed(1),
      ),
    },
    {
      budget: `Every poll at most ${POLL_CALLS_BUDGET} DynamoDB calls`,
      ...over(
        polls,
        (row) => row.dynamoCallsPerCall <= POLL_CALLS_BUDGET + 1e-9,
        (row) => row.dynamoCallsPerCall.toFixed(1),
      ),
    },
    {
      budget: `Modelled AWS latency under ${MODELLED_P50_BUDGET_MS} ms for every car-line change`,
      ...over(
        changes,
        (row) => modelledAwsMs(row) < MODELLED_P50_BUDGET_MS,
        (row) => `${ms(modelledAwsMs(row))} ms`,
      ),
    },
  ];
};
