import { connectionTableDefinition, tableDefinition } from '@curbside/store/table';
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { StackPart } from './part';

const string = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });

/** A table definition of `@curbside/store/table`: keys, TTL attribute, indexes (each projecting all). */
interface TableDefinition {
  partitionKey: string;
  sortKey: string;
  ttlAttribute: string;
  globalSecondaryIndexes: readonly { indexName: string; partitionKey: string; sortKey: string }[];
}

/** The keys, TTL and on-demand billing of a definition, for `new dynamodb.Table`. */
const keysOf = (definition: TableDefinition) => ({
  partitionKey: string(definition.partitionKey),
  sortKey: string(definition.sortKey),
  timeToLiveAttribute: definition.ttlAttribute,
  billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
});

/** The indexes of a definition, each projecting all attributes. */
const addIndexes = (table: dynamodb.Table, definition: TableDefinition) => {
  for (const index of definition.globalSecondaryIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: string(index.partitionKey),
      sortKey: string(index.sortKey),
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
};

/**
 * The two tables, from the definitions the laptop runtime also uses (`@curbside/store/table`):
 * the data table (point-in-time recovery, deletion protection, retained) and the live-connection
 * table. A key, an index or an attribute is added to the definition, not here.
 */
export class Tables extends StackPart {
  readonly data: dynamodb.Table;
  readonly connections: dynamodb.Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.data = new dynamodb.Table(this, 'Table', {
      ...keysOf(tableDefinition),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    addIndexes(this.data, tableDefinition);

    // Connections live at most 2 hours: no backups, and nothing to keep when the stack goes.
    this.connections = new dynamodb.Table(this, 'ConnectionTable', {
      ...keysOf(connectionTableDefinition),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    addIndexes(this.connections, connectionTableDefinition);
    NagSuppressions.addResourceSuppressions(this.connections, [
      {
        id: 'AwsSolutions-DDB3',
        reason:
          'The connection table holds only live WebSocket connections (each at most 2 hours old, kept again by the next $connect): nothing to recover to a point in time. The data table has point-in-time recovery.',
      },
    ]);
  }
}
