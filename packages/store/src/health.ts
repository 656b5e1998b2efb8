import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/** A real round trip to the table: reads one (possibly absent) key. */
export const ping = async (db: Db): Promise<void> => {
  await db.doc.send(new GetCommand({ TableName: db.table, Key: { pk: 'HEALTH', sk: 'HEALTH' } }));
};
