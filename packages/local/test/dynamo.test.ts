import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { TTL_ATTRIBUTE } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { ensureTable, localDynamoClient, startDynamoLocal } from '../src/dynamo';

const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;

/** DynamoDB Local processes listening on this port (none once stopped). */
const javaOnPort = (port: string): string[] => {
  try {
    return execFileSync('pgrep', ['-f', `DynamoDBLocal.*-port ${port}`], { encoding: 'utf8' })
      .trim()
      .split('\n');
  } catch {
    return [];
  }
};

describe('ensureTable', () => {
  it('creates the table with its indexes and TTL, and is safe to call again', async () => {
    const tableName = `ensure-${Date.now()}`;
    await ensureTable({ endpoint, tableName });
    await ensureTable({ endpoint, tableName });
    const client = localDynamoClient(endpoint);
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      expect(Table?.KeySchema?.map((k) => k.AttributeName)).toEqual(['pk', 'sk']);
      expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(['gsi1', 'gsi2']);
      const { TimeToLiveDescription } = await client.send(
        new DescribeTimeToLiveCommand({ TableName: tableName }),
      );
      expect(TimeToLiveDescription).toMatchObject({
        TimeToLiveStatus: 'ENABLED',
        AttributeName: TTL_ATTRIBUTE,
      });
    } finally {
      client.destroy();
    }
  });
});

describe('startDynamoLocal', () => {
  it('keeps tables in dataDir across restarts and leaves no Java process behind', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'curbside-dynamo-'));
    try {
      const first = await startDynamoLocal({ dataDir });
      const port = new URL(first.endpoint).port;
      expect(javaOnPort(port)).toHaveLength(1);
      await ensureTable({ endpoint: first.endpoint, tableName: 'kept-table' });
      await first.stop();
      expect(javaOnPort(port)).toEqual([]);

      const second = await startDynamoLocal({ dataDir });
      const client = localDynamoClient(second.endpoint);
      try {
        expect((await client.send(new ListTablesCommand({}))).TableNames).toContain('kept-table');
      } finally {
        client.destroy();
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
