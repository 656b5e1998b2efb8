import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_KEY_ID_VARIABLE, TTL_ATTRIBUTE } from '@curbside/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
  // Starting one points this process's clients at it: give the test file's own database back after.
  let runKey: string | undefined;
  beforeEach(() => {
    runKey = process.env[LOCAL_KEY_ID_VARIABLE];
  });
  afterEach(() => {
    process.env[LOCAL_KEY_ID_VARIABLE] = runKey;
  });

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
    // Two starts of the JVM: on a loaded 2-core machine one alone can take 20 s.
  }, 120_000);

  it('shows its data only to the access key id kept in the data folder, and to no browser page', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'curbside-dynamo-'));
    try {
      const dynamo = await startDynamoLocal({ dataDir });
      try {
        await ensureTable({ endpoint: dynamo.endpoint, tableName: 'private-table' });
        const keyFile = join(dataDir, 'dynamodb-access-key-id');
        expect(readFileSync(keyFile, 'utf8').trim()).toBe(dynamo.accessKeyId);
        expect(statSync(keyFile).mode & 0o077).toBe(0);
        expect(dynamo.accessKeyId).toMatch(/^[A-Z0-9]{20}$/);

        // A visitor on the network, with any key id (or the old fixed one), sees an empty database.
        for (const visitor of ['local', 'AKIAIOSFODNN7EXAMPLE']) {
          const client = localDynamoClient(dynamo.endpoint, visitor);
          try {
            expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
          } finally {
            client.destroy();
          }
        }
        const owner = localDynamoClient(dynamo.endpoint, dynamo.accessKeyId);
        try {
          expect((await owner.send(new ListTablesCommand({}))).TableNames).toEqual(['private-table']);
        } finally {
          owner.destroy();
        }
        // A web page of another site may not call it (no CORS allowance).
        const preflight = await fetch(dynamo.endpoint, {
          method: 'OPTIONS',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
        });
        expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      } finally {
        await dynamo.stop();
      }
      const again = await startDynamoLocal({ dataDir });
      expect(again.accessKeyId).toBe(readFileSync(join(dataDir, 'dynamodb-access-key-id'), 'utf8').trim());
      await again.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('moves a database kept by an older start (one shared database) under the new key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'curbside-dynamo-'));
    try {
      writeFileSync(join(dataDir, 'shared-local-instance.db'), '');
      const dynamo = await startDynamoLocal({ dataDir });
      await dynamo.stop();
      expect(existsSync(join(dataDir, 'shared-local-instance.db'))).toBe(false);
      expect(existsSync(join(dataDir, `${dynamo.accessKeyId}_us-east-1.db`))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
