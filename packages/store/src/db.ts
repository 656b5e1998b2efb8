import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** A handle on the table: the document client and the table's name. */
export interface Db {
  readonly doc: DynamoDBDocumentClient;
  readonly table: string;
}

export interface DbOptions {
  table: string;
  /** DynamoDB Local or LocalStack; unset in AWS. */
  endpoint?: string | undefined;
  region?: string | undefined;
}

export const createDb = ({ table, endpoint, region }: DbOptions): Db => {
  const local = endpoint !== undefined && endpoint !== '';
  const client = new DynamoDBClient({
    region: region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(local ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 3,
  });
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { doc, table };
};
