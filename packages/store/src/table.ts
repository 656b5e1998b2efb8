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
