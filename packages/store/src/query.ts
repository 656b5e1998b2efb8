import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/** True when DynamoDB refused a write because a condition did not hold. */
export const isConditionFailure = (error: unknown): boolean =>
  ['ConditionalCheckFailedException', 'TransactionCanceledException'].includes(
    (error as { name?: string }).name ?? '',
  );

/** Why a transaction was cancelled, per item in order, as DynamoDB reports it. */
export const cancellationReasons = (error: unknown): string[] =>
  ((error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? []).map(
    (r) => r.Code ?? 'None',
  );

/**
 * Every item of one Query, following pages until the end (or `limit` items).
 * Entity modules alone call it, with keys they own.
 */
export const queryAll = async (
  db: Db,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  limit?: number,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.table,
        ExclusiveStartKey: cursor,
        ...(limit ? { Limit: limit - items.length } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor && (!limit || items.length < limit));
  return items;
};
