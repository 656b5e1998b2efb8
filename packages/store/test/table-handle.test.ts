import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testDb } from './fixtures/db';

/**
 * The table handle resolves a command's middleware stack once per command
 * class (issue 54, ADR 0027 "The handler's CPU"), not once per call: each call
 * still sends its own input and reads its own answer, calls in flight together
 * do not mix, and a middleware added to the client later applies from the
 * next call on.
 */
describe('the table handle', () => {
  afterEach(() => vi.restoreAllMocks());

  const item = (id: string, value: string) => ({ pk: `HANDLE#${id}`, sk: 'HANDLE', value });

  it('resolves the middleware stack of a command class once, not on every call', async () => {
    const db = testDb();
    const resolving = {
      put: vi.spyOn(PutItemCommand.prototype, 'resolveMiddleware'),
      get: vi.spyOn(GetItemCommand.prototype, 'resolveMiddleware'),
    };
    for (let i = 0; i < 3; i++) {
      await db.doc.send(new PutCommand({ TableName: db.table, Item: item(`once-${i}`, `v${i}`) }));
      await db.doc.send(
        new GetCommand({ TableName: db.table, Key: { pk: `HANDLE#once-${i}`, sk: 'HANDLE' } }),
      );
    }
    expect(resolving.put).toHaveBeenCalledTimes(1);
    expect(resolving.get).toHaveBeenCalledTimes(1);
  });

  it('sends each call its own input and answers each its own item, one after another and at once', async () => {
    const db = testDb();
    const ids = Array.from({ length: 12 }, (_, i) => `own-${i}`);
    for (const id of ids.slice(0, 6))
      await db.doc.send(new PutCommand({ TableName: db.table, Item: item(id, `value of ${id}`) }));
    await Promise.all(
      ids
        .slice(6)
        .map((id) => db.doc.send(new PutCommand({ TableName: db.table, Item: item(id, `value of ${id}`) }))),
    );
    const read = (id: string) =>
      db.doc.send(new GetCommand({ TableName: db.table, Key: { pk: `HANDLE#${id}`, sk: 'HANDLE' } }));
    for (const id of ids.slice(0, 6)) expect((await read(id)).Item?.value).toBe(`value of ${id}`);
    const atOnce = await Promise.all(ids.map(read));
    expect(atOnce.map((answer) => answer.Item?.value)).toEqual(ids.map((id) => `value of ${id}`));
    expect((await read('none')).Item).toBeUndefined();
  });

  it('applies a middleware added after a first call to the next call, and none once it is removed', async () => {
    const db = testDb();
    await db.doc.send(new PutCommand({ TableName: db.table, Item: item('later', 'first') }));
    const seen: string[] = [];
    db.doc.middlewareStack.add(
      ((next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => {
        seen.push(context.commandName ?? '');
        return next(args);
      }) as never,
      { step: 'initialize', name: 'testSeen' },
    );
    await db.doc.send(new PutCommand({ TableName: db.table, Item: item('later', 'second') }));
    expect(seen).toEqual(['PutItemCommand']);
    db.doc.middlewareStack.remove('testSeen');
    await db.doc.send(new PutCommand({ TableName: db.table, Item: item('later', 'third') }));
    expect(seen).toEqual(['PutItemCommand']);
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: { pk: 'HANDLE#later', sk: 'HANDLE' } }),
    );
    expect(Item?.value).toBe('third');
  });

  it('refuses a call as before: a failed condition is the SDK error, and the next call goes through', async () => {
    const db = testDb();
    const put = (value: string) =>
      db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: item('condition', value),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    await put('first');
    await expect(put('second')).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: { pk: 'HANDLE#condition', sk: 'HANDLE' } }),
    );
    expect(Item?.value).toBe('first');
  });
});
