/**
 * The one table definition. The CDK stack and the laptop runtime both build
 * the table from this object, so the two can never drift.
 */
export const TTL_ATTRIBUTE = 'ttl';

export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: TTL_ATTRIBUTE,
  /** Every index projects all attributes. */
  globalSecondaryIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;

export type IndexName = (typeof tableDefinition.globalSecondaryIndexes)[number]['indexName'];

/** The CreateTable input for DynamoDB Local (and LocalStack). */
export const createTableInput = (tableName: string) => ({
  TableName: tableName,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    ...tableDefinition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
  KeySchema: [
    { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' as const },
  ],
  GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  })),
});

/**
 * The live-connection table: WebSocket connections and their channel and user
 * memberships (`connection.ts`), apart from the data so that connection churn
 * never touches the data table, its backups or its capacity. Keys and TTL as
 * in the data table; no index (every read is a key or a partition Query); no
 * point-in-time recovery (a connection lives at most 2 hours).
 */
export const connectionTableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: TTL_ATTRIBUTE,
  globalSecondaryIndexes: [],
} as const;

/** The CreateTable input of the live-connection table for DynamoDB Local (and LocalStack). */
export const createConnectionTableInput = (tableName: string) => ({
  TableName: tableName,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [connectionTableDefinition.partitionKey, connectionTableDefinition.sortKey].map(
    (name) => ({ AttributeName: name, AttributeType: 'S' as const }),
  ),
  KeySchema: [
    { AttributeName: connectionTableDefinition.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: connectionTableDefinition.sortKey, KeyType: 'RANGE' as const },
  ],
});

/** The laptop's default name of the live-connection table beside a data table. */
export const connectionTableNameFor = (dataTableName: string) => `${dataTableName}-connections`;
