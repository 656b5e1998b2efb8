// Keys only, no code, beside the queue both lines share: the front queue's outbox names the back queue's batches with it without
// loading the back queue's cache patches (its first load stays in budget).

/**
 * Query keys of batches, by how often they change. Loading batches and
 * their vehicles (`['batches']`) change with the queue; the completed list
 * (`['completed-batches']`) only when a batch completes; a completed batch's
 * vehicles (`['batch-history']`) never change again.
 */
export const batchKeys = {
  all: ['batches'] as const,
  done: ['completed-batches'] as const,
  history: ['batch-history'] as const,
  active: (sessionId: number) => [...batchKeys.all, sessionId, 'active'] as const,
  completed: (sessionId: number) => [...batchKeys.done, sessionId] as const,
  /** A loading batch's vehicles. */
  vehicles: (batchId: number) => [...batchKeys.all, 'vehicles', batchId] as const,
  /** A completed batch's vehicles. */
  historyOf: (batchId: number) => [...batchKeys.history, batchId] as const,
};
