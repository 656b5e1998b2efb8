import { createDb, type Db, onTable } from '@curbside/store';
import { config } from './config';

/** The data table's handle, created once per process (per Lambda container). */
export const db = createDb({
  table: config.tableName,
  endpoint: config.dynamoEndpoint,
  accessKeyId: config.localKeyId,
  region: config.region,
});

let connectionTable: Db | undefined;

/**
 * The live-connection table's handle (same client), for the WebSocket and
 * publishing functions only: the others are not given CONNECTION_TABLE_NAME
 * (nor any access to that table), and calling this there is a bug.
 */
export const connectionsDb = (): Db => {
  if (!config.connectionTableName) throw new Error('Environment variable CONNECTION_TABLE_NAME is not set');
  connectionTable ??= onTable(db, config.connectionTableName);
  return connectionTable;
};
