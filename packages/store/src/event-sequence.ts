import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/**
 * The live-event sequence of a session: `SESSION#{sessionId}` / `EVENT_SEQ`,
 * raised with ADD once per event published for the session, so screens see
 * 1, 2, 3, … and know when they missed one.
 */
export const eventSequence = {
  async next(db: Db, sessionId: number): Promise<number> {
    const { Attributes } = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: { pk: `SESSION#${sessionId}`, sk: 'EVENT_SEQ' },
        UpdateExpression: 'ADD #value :one',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.value);
  },
};
