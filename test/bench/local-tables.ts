import { ensureTable, localDynamoClient, startDynamoLocal } from '@curbside/local';
import { connectionTableNameFor } from '@curbside/store';

/**
 * A DynamoDB Local of its own (the JVM's defaults, in memory) with a data table
 * named `data` and its live-connection table, for the micro-benchmarks that
 * measure how Local orders calls (`sequence-lock.ts`, `add-to-batch-chain.ts`, `bell.ts`).
 */
export const localTables = async (data: string) => {
  const local = await startDynamoLocal({ inMemory: true });
  const connections = connectionTableNameFor(data);
  await ensureTable({ endpoint: local.endpoint, tableName: data });
  await ensureTable({ endpoint: local.endpoint, tableName: connections, kind: 'connections' });
  return { local, connections, client: localDynamoClient(local.endpoint) };
};
