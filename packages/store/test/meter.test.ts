import { AsyncResource } from 'node:async_hooks';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDb } from '../src/db';
import {
  billedUnits,
  itemSize,
  meter,
  observeWrite,
  roundTripsOf,
  transactionUnits,
  UNLABELLED,
} from '../src/meter';
import { meterOnForEachTest } from './meter-on';

describe('billedUnits', () => {
  it('bills what DynamoDB reports, and transactions from their items (Local reports one flat figure)', () => {
    expect(billedUnits('PutItem', {}, { ok: true, consumed: { CapacityUnits: 1 } })).toEqual({
      read: 0,
      write: 1,
      estimated: 0,
    });
    const twoPuts = {
      TransactItems: [
        { Put: { TableName: 't', Item: { pk: 'A', sk: 'A' } } },
        { Put: { TableName: 't', Item: { pk: 'B', sk: 'B' } } },
      ],
    };
    expect(
      billedUnits('TransactWriteItems', twoPuts, { ok: true, consumed: [{ CapacityUnits: 2 }] }).write,
    ).toBe(4);
    expect(billedUnits('BatchGetItem', {}, { ok: true, consumed: [{ CapacityUnits: 2.5 }] }).read).toBe(2.5);
  });

  it('bills a read that finds nothing at least one read of its consistency', () => {
    expect(billedUnits('Query', {}, { ok: true, consumed: { CapacityUnits: 0 } }).read).toBe(0.5);
    expect(billedUnits('GetItem', { ConsistentRead: true }, { ok: true, consumed: undefined }).read).toBe(1);
  });

  it('bills a failed conditional write as an estimated write per item, double in a transaction', () => {
    expect(billedUnits('PutItem', {}, { ok: false, errorName: 'ConditionalCheckFailedException' })).toEqual({
      read: 0,
      write: 1,
      estimated: 1,
    });
    expect(
      billedUnits(
        'TransactWriteItems',
        { TransactItems: [{}, {}] },
        { ok: false, errorName: 'TransactionCanceledException' },
      ),
    ).toEqual({ read: 0, write: 4, estimated: 4 });
    expect(billedUnits('GetItem', {}, { ok: false, errorName: 'ResourceNotFoundException' }).read).toBe(0);
  });
});

describe('transactionUnits', () => {
  beforeEach(() => meter.reset());

  it('bills 2 units per KB of each item on the table and 1 per KB for each index it is in', () => {
    const entry = { pk: 'QUEUE#1', sk: 'ENTRY#car#1', text: 'x'.repeat(1500) };
    const batch = {
      pk: 'BATCH#1',
      sk: 'BATCH',
      gsi1pk: 'SESSION#1#BATCHES',
      gsi1sk: '000001',
      currentCount: 0,
    };
    observeWrite('PutItem', { TableName: 't', Item: entry });
    observeWrite('PutItem', { TableName: 't', Item: batch });
    expect(
      transactionUnits([
        { Update: { TableName: 't', Key: { pk: 'BATCH#1', sk: 'BATCH' } } }, // 2 + 1 (gsi1)
        { Delete: { TableName: 't', Key: { pk: 'QUEUE#1', sk: 'ENTRY#car#1' } } }, // 1.5 KB: 4
        { Put: { TableName: 't', Item: { pk: 'QUEUE#1', sk: 'DONE#1', n: 1 } } }, // 2
      ]),
    ).toEqual({ units: 9, estimated: 0 });
  });

  it('counts an item it has not seen written as 1 KB in no index, estimated', () => {
    expect(transactionUnits([{ Update: { TableName: 't', Key: { pk: 'X', sk: 'Y' } } }])).toEqual({
      units: 2,
      estimated: 2,
    });
    observeWrite('TransactWriteItems', {
      TransactItems: [{ Put: { TableName: 't', Item: { pk: 'X', sk: 'Y' } } }],
    });
    expect(transactionUnits([{ Delete: { TableName: 't', Key: { pk: 'X', sk: 'Y' } } }]).estimated).toBe(0);
    observeWrite('DeleteItem', { TableName: 't', Key: { pk: 'X', sk: 'Y' } });
    expect(transactionUnits([{ Delete: { TableName: 't', Key: { pk: 'X', sk: 'Y' } } }]).estimated).toBe(2);
  });

  it('sizes items as DynamoDB does: names plus values', () => {
    expect(itemSize({ pk: 'ab', n: 12345, ok: true, none: null })).toBe(2 + 2 + 1 + 4 + 2 + 1 + 4 + 1);
    expect(itemSize({ list: ['a', 'b'], map: { k: 'v' } })).toBe(4 + 3 + 2 + 2 + 3 + 3 + 1 + 2);
  });
});

describe('the meter', () => {
  meterOnForEachTest();

  it('counts nothing while off', () => {
    delete process.env.CURBSIDE_METER;
    meter.run('x', () => meter.add('n'));
    expect(meter.snapshot()).toEqual({});
  });

  it('adds counters under the label of the running invocation, across awaits', async () => {
    await Promise.all([
      meter.run('a', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        meter.add('n', 2);
      }),
      meter.run('b', async () => meter.add('n')),
    ]);
    meter.add('n');
    expect(meter.snapshot()).toEqual({ a: { n: 2 }, b: { n: 1 }, [UNLABELLED]: { n: 1 } });
  });

  it("counts an invocation's own CPU: its busy code, not what it awaits nor another invocation's work", async () => {
    /** Burns `ms` of this thread's CPU (a handler's work; CPU, so a shared machine's waits for a core add nothing). */
    const busy = (ms: number) => {
      const cpu = () => process.threadCpuUsage().user + process.threadCpuUsage().system;
      const until = cpu() + ms * 1000;
      while (cpu() < until);
    };
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const [own, other] = await Promise.all([
      meter.run('a', async () => {
        busy(20);
        // A slow DynamoDB call is a wait: no CPU of this invocation, while another one runs.
        await wait(400);
        busy(30);
        return meter.cpuMs();
      }),
      meter.run('b', async () => {
        await wait(50);
        busy(200);
        return meter.cpuMs();
      }),
    ]);
    // 50 ms of its own, with a generous margin for a shared machine; the 400 ms wait or b's 200 ms would show.
    expect(own).toBeGreaterThanOrEqual(50);
    expect(own).toBeLessThan(190);
    expect(other).toBeGreaterThanOrEqual(200);
    expect(other).toBeLessThan(400);
  });

  it('charges each invocation its own CPU when their promise reactions take turns', async () => {
    /** Spins until this thread's clock has moved by `ms` (one step of the kernel's tick, at least). */
    const busy = (ms: number) => {
      const cpu = () => process.threadCpuUsage().user + process.threadCpuUsage().system;
      const until = cpu() + ms * 1000;
      while (cpu() < until);
    };
    // Both chains are queued at once, so their reactions alternate: a, b, a, b, …
    const [busyOne, idleOne] = await Promise.all([
      meter.run('a', async () => {
        for (let i = 0; i < 40; i++) {
          await Promise.resolve();
          busy(2);
        }
        return meter.cpuMs();
      }),
      meter.run('b', async () => {
        for (let i = 0; i < 40; i++) await Promise.resolve();
        return meter.cpuMs();
      }),
    ]);
    expect(busyOne).toBeGreaterThanOrEqual(80);
    // b's reactions are microseconds each: a's work, or the other tests', would show here.
    expect(idleOne).toBeLessThan(40);
  });

  it("charges a callback entered from inside another to its own invocation, and the rest to the outer one's", () => {
    /** Spins for `ms` of this thread's CPU (its clock brought up to date by the process's at each read). */
    const busy = (ms: number) => {
      const cpu = () => {
        process.cpuUsage();
        const used = process.threadCpuUsage();
        return used.user + used.system;
      };
      const until = cpu() + ms * 1000;
      while (cpu() < until);
    };
    // A resource of invocation b's (as the HTTP parser of b's DynamoDB call is), called back inside a's code.
    const ofB = meter.run('b', () => new AsyncResource('nested'));
    const own = meter.run('a', () => {
      busy(20);
      ofB.runInAsyncScope(() => busy(40));
      busy(20);
      return meter.cpuMs();
    });
    const nested = ofB.runInAsyncScope(() => meter.cpuMs());
    expect(own).toBeGreaterThanOrEqual(40);
    expect(own).toBeLessThan(75);
    expect(nested).toBeGreaterThanOrEqual(40);
    expect(nested).toBeLessThan(75);
  });

  it('reads the clock where the work changes hands, not at every reaction of one invocation', async () => {
    const clocks = [vi.spyOn(process, 'cpuUsage'), vi.spyOn(process, 'threadCpuUsage')] as const;
    try {
      await meter.run('chain', async () => {
        for (let i = 0; i < 1000; i++) await Promise.resolve(i);
      });
      // Before h54n, twice per reaction: some 2,000 reads (of the thread's clock) for this one chain.
      expect(clocks[0].mock.calls.length + clocks[1].mock.calls.length).toBeLessThan(50);
    } finally {
      for (const clock of clocks) clock.mockRestore();
    }
    expect(meter.snapshot()).toEqual({});
  });

  it("counts the CPU of short bursts between waits (a handler's millisecond before each DynamoDB call)", async () => {
    /** A fixed piece of work that reads no clock (reading one can bring the thread's up to date). */
    const work = (rounds: number) => {
      let x = 0;
      for (let i = 0; i < rounds; i++) x = (x * 31 + i) % 1_000_003;
      return x;
    };
    const cpuMs = (since: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(since);
      return (used.user + used.system) / 1000;
    };
    // Rounds of about 1 ms, and what 50 of them cost this process when run in one go.
    let started = process.cpuUsage();
    work(2_000_000);
    const rounds = Math.max(1, Math.round(2_000_000 / cpuMs(started)));
    started = process.cpuUsage();
    work(rounds * 50);
    const expected = cpuMs(started);
    const counted = await meter.run('bursts', async () => {
      for (let i = 0; i < 50; i++) {
        work(rounds);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return meter.cpuMs();
    });
    // Each burst is shorter than the kernel's tick (4 ms): the thread's clock, read inside it, saw few.
    expect(counted).toBeGreaterThanOrEqual(expected * 0.7);
    expect(counted).toBeLessThan(expected * 2 + 20);
  });

  it('counts no CPU outside a metered invocation, nor while off', () => {
    expect(meter.cpuMs()).toBe(0);
    delete process.env.CURBSIDE_METER;
    expect(meter.run('x', () => meter.cpuMs())).toBe(0);
  });

  it('collects the request units of every call of a metered table handle', async () => {
    const db = createDb({
      table: process.env.TABLE_NAME as string,
      endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      meter: true,
    });
    const item = { pk: 'METER#1', sk: 'A', text: 'x'.repeat(1500) };
    await meter.run('work', async () => {
      await db.doc.send(new PutCommand({ TableName: db.table, Item: item }));
      await db.doc.send(new GetCommand({ TableName: db.table, Key: { pk: 'METER#1', sk: 'A' } }));
      await db.doc.send(
        new QueryCommand({
          TableName: db.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'METER#none' },
        }),
      );
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: db.table, Item: { pk: 'METER#2', sk: 'A' } } },
            { Put: { TableName: db.table, Item: { pk: 'METER#2', sk: 'B' } } },
          ],
        }),
      );
      await expect(
        db.doc.send(
          new PutCommand({
            TableName: db.table,
            Item: item,
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      ).rejects.toThrow();
    });
    expect(meter.snapshot().work).toEqual({
      'ddb.calls': 5,
      'ddb.PutItem.calls': 2,
      'ddb.PutItem.units': 3, // 1.5 KB is 2 units, and 1 (estimated) for the failed condition
      'ddb.GetItem.calls': 1,
      'ddb.GetItem.units': 0.5,
      'ddb.Query.calls': 1,
      'ddb.Query.units': 0.5,
      'ddb.TransactWriteItems.calls': 1,
      'ddb.TransactWriteItems.units': 4,
      'ddb.readUnits': 1,
      'ddb.writeUnits': 7,
      'ddb.estimatedWriteUnits': 1,
    });
  });

  it('asks DynamoDB Local for no units on a transaction (it bills those from the items), for them on every other call', async () => {
    const db = createDb({
      table: process.env.TABLE_NAME as string,
      endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      meter: true,
    });
    // What each call asks of DynamoDB, as sent (after the meter's middleware).
    const asked: Record<string, unknown> = {};
    db.doc.middlewareStack.add(
      (next, context) => (args) => {
        asked[(context.commandName ?? '').replace(/Command$/, '')] = (
          args.input as { ReturnConsumedCapacity?: string }
        ).ReturnConsumedCapacity;
        return next(args);
      },
      { step: 'build', name: 'testAsked' },
    );
    await meter.run('asked', async () => {
      await db.doc.send(new PutCommand({ TableName: db.table, Item: { pk: 'METER#4', sk: 'A' } }));
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: db.table, Item: { pk: 'METER#4', sk: 'B' } } },
            { Put: { TableName: db.table, Item: { pk: 'METER#4', sk: 'C' } } },
          ],
        }),
      );
    });
    expect(asked).toEqual({ PutItem: 'TOTAL', TransactWriteItems: undefined });
    // The transaction's units are its items' (2 each), as before.
    expect(meter.snapshot().asked?.['ddb.TransactWriteItems.units']).toBe(4);
  });

  it('counts the sequential round trips of an invocation: calls in flight together once', async () => {
    const db = createDb({
      table: process.env.TABLE_NAME as string,
      endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      meter: true,
    });
    const get = (sk: string) =>
      db.doc.send(new GetCommand({ TableName: db.table, Key: { pk: 'METER#3', sk } }));
    const trips = await meter.run('trips', async () => {
      await Promise.all([get('A'), get('B'), get('C')]);
      await get('D');
      await Promise.all([get('E'), get('F')]);
      return meter.roundTrips();
    });
    expect(meter.snapshot().trips?.['ddb.calls']).toBe(6);
    expect(trips).toBe(3);
  });
});

describe('roundTripsOf', () => {
  it('is the longest chain of calls each started after the one before ended', () => {
    expect(roundTripsOf([])).toBe(0);
    expect(
      roundTripsOf([
        [0, 10],
        [1, 9],
        [2, 12],
      ]),
    ).toBe(1);
    // A call started once the first answered, beside a long one started at once: 2, not 3.
    expect(
      roundTripsOf([
        [0, 5],
        [0, 30],
        [6, 10],
        [11, 20],
      ]),
    ).toBe(3);
    expect(
      roundTripsOf([
        [0, 5],
        [5, 8],
      ]),
    ).toBe(2);
  });
});
