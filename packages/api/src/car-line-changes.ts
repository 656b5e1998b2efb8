import type { RouteName } from './routes';

/**
 * The car-line changes (issue 54): each made by one transaction carrying its
 * Idempotency-Key (ADR 0027), budgeted at 6 DynamoDB calls in 4 round trips
 * (a batch's completion of N cars 6 + N/25). Not in the route table's module:
 * a function's bundle builds that table from its area's routes only (ADR 0019).
 */
export const CAR_LINE_CHANGES = [
  'addToQueue',
  'setQueueStatus',
  'updateQueueEntry',
  'removeFromQueue',
  'restoreQueueEntry',
  'createBatch',
  'addToBatch',
  'updateBatch',
  'releaseStudent',
  'createAlert',
  'acknowledgeAlert',
  'dismissAlert',
] as const satisfies readonly RouteName[];

/**
 * The releases by way home (issue 52): a classroom's walkers, a bus's riders,
 * a program's children, each in a transaction that carries its
 * Idempotency-Key as the car-line changes do (ADR 0027 "Bulk releases and the
 * tail"). Not in the benchmark's 6-call budget: their calls are budgeted in
 * `test/api/calls-per-request.test.ts` by the children (6 + N/25).
 */
export const BULK_RELEASES = [
  'releaseWalkers',
  'releaseBusRiders',
  'releaseToProgram',
] as const satisfies readonly RouteName[];
