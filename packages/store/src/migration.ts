import { GetCommand, PutCommand, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import type { ItemKey } from './keyed-read';

/**
 * A data migration over every item of one entity (never a request path: a
 * Scan of the table in pages, each page handed to `onPage` in turn). `once`:
 * skipped when its `mark` is set (a run with `once` finished: the laptop's
 * start), and the mark set when it finishes. Answers whether it ran.
 */
export const migrateEntity = async (
  db: Db,
  { entity, mark, once }: { entity: string; mark: ItemKey; once: boolean },
  onPage: (items: Record<string, unknown>[]) => Promise<void>,
): Promise<boolean> => {
  if (once) {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: mark, ConsistentRead: true }),
    );
    if (Item) return false;
  }
  let start: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await db.doc.send(
      new ScanCommand({
        TableName: db.table,
        FilterExpression: 'entity = :entity',
        ExpressionAttributeValues: { ':entity': entity },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    await onPage(page.Items ?? []);
    start = page.LastEvaluatedKey;
  } while (start);
  if (once) {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...mark, entity: 'migration', at: new Date().toISOString() },
      }),
    );
  }
  return true;
};
