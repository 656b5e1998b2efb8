import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PutCommand, QueryCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { AccessDeniedException, access, requiredActions } from '../src/access';
import { testDb } from './fixtures/db';

/** IAM on a laptop: a call the running invocation's grant does not allow is refused, as AWS would. */
const db = testDb();
const readOnly = {
  name: 'http-admin',
  tables: { [db.table]: ['GetItem', 'Query'] as const },
  manageConnections: false,
};

describe('a grant', () => {
  it('lets its actions through and refuses the others, naming the function and the action', async () => {
    await access.run(readOnly, () =>
      db.doc.send(
        new QueryCommand({
          TableName: db.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'NOTHING' },
        }),
      ),
    );
    const write = access.run(readOnly, () =>
      db.doc.send(new PutCommand({ TableName: db.table, Item: { pk: 'X', sk: 'Y' } })),
    );
    await expect(write).rejects.toBeInstanceOf(AccessDeniedException);
    await expect(write).rejects.toThrow(/http-admin is not authorized to perform dynamodb:PutItem/);
  });

  it('never allows a Scan, and checks each item of a transaction', async () => {
    const everything = {
      name: 'http-carLine',
      tables: { [db.table]: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] as const },
      manageConnections: true,
    };
    await expect(
      access.run(everything, () => db.doc.send(new ScanCommand({ TableName: db.table }))),
    ).rejects.toThrow(/dynamodb:Scan/);
    const transaction = new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: db.table, Item: { pk: 'A', sk: 'A' } } },
        { Delete: { TableName: db.table, Key: { pk: 'B', sk: 'B' } } },
      ],
    });
    await expect(access.run(everything, () => db.doc.send(transaction))).rejects.toThrow(
      /dynamodb:DeleteItem/,
    );
    expect(requiredActions('TransactWriteItems', transaction.input)).toEqual([
      [db.table, 'PutItem'],
      [db.table, 'DeleteItem'],
    ]);
  });

  it('is not checked outside an invocation (a seed, a script, a test)', async () => {
    await db.doc.send(new PutCommand({ TableName: db.table, Item: { pk: 'OUTSIDE', sk: 'OUTSIDE' } }));
  });
});

describe('grants under AsyncContextFrame, as the laptop runtime starts its server', () => {
  const FRAME = '--experimental-async-context-frame';
  it.skipIf(!process.allowedNodeEnvironmentFlags.has(FRAME))(
    'keep each invocation its own grant across timers and DynamoDB calls',
    { timeout: 60_000 },
    () => {
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
      const script = fileURLToPath(new URL('./fixtures/grants-in-frame.ts', import.meta.url));
      const out = execFileSync(process.execPath, [FRAME, '--import', tsx, script], {
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
        encoding: 'utf8',
      });
      const { frame, reader, writer } = JSON.parse(out.trim().split('\n').at(-1) as string);
      expect(frame).toBe(true);
      expect(reader).toEqual(Array(3).fill('http-admin: AccessDeniedException'));
      expect(writer).toEqual(Array(3).fill('http-carLine: written'));
    },
  );
});
