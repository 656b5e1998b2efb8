import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import { meter } from './meter';

/**
 * The live-event sequence of a session: `SESSION#{sessionId}` / `EVENT_SEQ`,
 * raised with ADD once per event published for the session, so screens see
 * 1, 2, 3, … and know when they missed one.
 */
export const eventSequence = {
  async next(db: Db, sessionId: number): Promise<number> {
    const { Attributes, ConsumedCapacity } = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: { pk: `SESSION#${sessionId}`, sk: 'EVENT_SEQ' },
        UpdateExpression: 'ADD #value :one',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    // Metered apart as well, so the benchmark can tell the queue's own writes from the sequence's.
    meter.add('ddb.sequenceWriteUnits', ConsumedCapacity?.CapacityUnits ?? 1);
    return Number(Attributes?.value);
  },
};
