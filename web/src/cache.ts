/**
 * The web client's cache code without React: query keys, live-event cache
 * patches, the live sync and the query client's settings, with the polling
 * intervals the screens use. The benchmark (`test/bench`) runs its staff and
 * parent screens on these, as `@curbside/web/cache`.
 */
export { ALERTS_POLL_MS, activeAlertsPatch, alertKeys } from './features/alerts/alerts.cache';
export { batchKeys, batchPatches, completedBatchesPatch } from './features/back-queue/batches.cache';
export { type CachePatch, isLiveEvent, LiveSync } from './features/live/live-sync';
export { PARENT_STATUS_POLL_MS, spreadDelay } from './features/parent/parent.queries';
export { queueKeys, queuePatches } from './features/queue/queue.cache';
export { QUEUE_STATUS_POLL_MS, teacherKeys, teacherPatches } from './features/teacher/teacher.cache';
export { createQueryClient } from './lib/query-client';
