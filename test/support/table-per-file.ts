import { randomUUID } from 'node:crypto';
import { ensureTable } from '@curbside/local';
import { connectionTableNameFor, LOCAL_KEY_ID_VARIABLE } from '@curbside/store';
import { inject } from 'vitest';

/**
 * Runs before each test file: points the process at DynamoDB Local (under the
 * run's access key id) and at a data table and a connection table of this
 * file's own. Refuses to run against anything but localhost, so a test can
 * never touch real AWS.
 */
const endpoint = inject('dynamoEndpoint');
if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint)) {
  throw new Error(`Tests only run against a local DynamoDB endpoint, not ${endpoint}`);
}
const tableName = `test-${randomUUID()}`;
process.env[LOCAL_KEY_ID_VARIABLE] = inject('dynamoAccessKeyId');
process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
process.env.TABLE_NAME = tableName;
process.env.CONNECTION_TABLE_NAME = connectionTableNameFor(tableName);
await ensureTable({ endpoint, tableName });
await ensureTable({ endpoint, tableName: connectionTableNameFor(tableName), kind: 'connections' });
