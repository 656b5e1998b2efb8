import { connectionTableDefinition, tableDefinition } from '@curbside/store/table';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { inspect, synthesizeOnce } from './synth';

/** The data table and the live-connection table (`lib/tables.ts`). */
const curbside = synthesizeOnce();
const { tableLogicalId } = inspect(curbside);

describe('tables', () => {
  it('the data table has the keys, indexes and TTL of its one definition, on demand, with PITR, retained', () => {
    const allKeys = [
      tableDefinition.partitionKey,
      tableDefinition.sortKey,
      ...tableDefinition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    curbside.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [
          { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayEquals(
          allKeys.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        ),
        GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TableName: Match.absent(),
      },
    });
  });

  it('live connections have their own table, from its definition: TTL, on demand, no backups', () => {
    curbside.template.resourceCountIs('AWS::DynamoDB::Table', 2);
    const table = curbside.resources[tableLogicalId(false)]!;
    expect(table.Properties).toMatchObject({
      KeySchema: [
        { AttributeName: connectionTableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: connectionTableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: connectionTableDefinition.ttlAttribute, Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
    });
    expect(table.Properties.GlobalSecondaryIndexes).toBeUndefined();
  });
});
