// What DynamoDB answers when a write's condition does not hold (apart from query.ts, so the
// table handle's Idempotency-Key claim needs no module that needs the table handle).

/**
 * True when DynamoDB refused a write because a condition did not hold: a
 * single write's, or one of a transaction's (a transaction cancelled for
 * another reason only, such as a conflict with another transaction, is not).
 */
export const isConditionFailure = (error: unknown): boolean => {
  const { name } = error as { name?: string };
  if (name === 'ConditionalCheckFailedException') return true;
  if (name !== 'TransactionCanceledException') return false;
  const reasons = cancellationReasons(error);
  return reasons.length === 0 || reasons.includes('ConditionalCheckFailed');
};

/** Why a transaction was cancelled, per item in order, as DynamoDB reports it. */
export const cancellationReasons = (error: unknown): string[] =>
  ((error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? []).map(
    (r) => r.Code ?? 'None',
  );
