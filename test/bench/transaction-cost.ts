/**
 * What a transaction costs DynamoDB Local, and what a poll waits for beside
 * transactions (issue 54, ADR 0027's "(h54l)"). Local runs each
 * TransactWriteItems under its one database-wide lock (`queueLock`'s write
 * side, from its SQLite `BEGIN` to its `COMMIT`), and every other call takes
 * that lock's read side, so a poll waits for every transaction ahead of it.
 *
 * Part 1, one caller: each kind of call alone, its wall time and Local's own CPU
 * (`/proc/{pid}/stat` of its Java process) a call. Part 2, `--changes` callers
 * each committing 6-item transactions one after another and `--polls` callers
 * each polling (a BatchGetItem of two tables beside a Query of the line's
 * index) one after another: the polls' and changes' wall times with the
 * changes' transactions sent one way or another. Both parts: one Local of its
 * own (the JVM's defaults, in memory), a warm-up first, variants interleaved
 * round by round with the order rotated, so that other work on the machine
 * falls on each alike. Wall times on a shared machine: compare within a run.
 *
 * Part 3, the same changers beside readers of 1, 3 or 7 keys by BatchGetItem, or of
 * 7 items by one Query: whether a read waits once a key. `--part 4`: part 1's
 * pairs that differ only by the units asked for. `--part 5` (h54o): the parent's whole poll
 * (BatchGetItem beside the line's Query) with or without the live table's key, beside
 * changes that each take their event's number on the live table after their transaction.
 *
 *   npx tsx test/bench/transaction-cost.ts [--calls 300] [--rounds 6] [--warm 1500]
 *     [--seconds 6] [--changes 4] [--polls 4] [--part 0 (1, 2 and 3) | 1 | 2 | 3 | 4 | 5]
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  type DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  type ReturnConsumedCapacity,
  TransactWriteItemsCommand,
  type TransactWriteItemsCommandInput,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { localDynamoClient } from '@curbside/local';
import { javaChild, procSeconds } from './cpu';
import { ADD_ONE, dataItem, localTables, medianAnd95, n, pad, percentile, SESSION, s } from './local-tables';
import { numericArgs, runScript } from './script';

const {
  calls: CALLS,
  rounds: ROUNDS,
  warm: WARM,
  seconds: SECONDS,
  changes: CHANGES,
  polls: POLLS,
  part: PART,
} = numericArgs({ calls: 300, rounds: 6, warm: 1500, seconds: 6, changes: 4, polls: 4, part: 0 });

const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);
/** The list of `name` in `lists`, made empty the first time. */
const into = (lists: Record<string, number[]>, name: string): number[] => {
  const list = lists[name] ?? [];
  lists[name] = list;
  return list;
};

interface TransactionShape {
  items: number;
  capacity?: ReturnConsumedCapacity;
  /** Each item's condition (`attribute_not_exists(pk) OR version < :v`), or only the first's (default). */
  conditions?: 'first' | 'none' | 'all';
  /** `ALL_OLD` on the conditioned items. */
  returnOld?: boolean;
  /** The last item an Update of the live-connection table (the event's number, as a session's creation writes it). */
  twoTables?: boolean;
}

const main = async () => {
  const data = 'transaction-cost';
  const { local, connections, client } = await localTables(data);
  const java = javaChild();
  if (java === undefined) throw new Error('DynamoDB Local’s process was not found (Linux only).');
  // A client whose TransactWriteItems carry no ClientRequestToken (the SDK fills one in when absent).
  const tokenless: DynamoDBClient = localDynamoClient(local.endpoint);
  tokenless.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { body?: string };
      if (typeof request.body === 'string' && request.body.includes('ClientRequestToken')) {
        const body = JSON.parse(request.body) as Record<string, unknown>;
        delete body.ClientRequestToken;
        request.body = JSON.stringify(body);
        (args.request as { headers: Record<string, string> }).headers['content-length'] = String(
          Buffer.byteLength(request.body),
        );
      }
      return next(args);
    },
    { step: 'build', name: 'dropClientRequestToken' },
  );

  // The line: 20 active cars (the screens' Query); a parent's sign-in, plan, child, session, marks (the poll's keys).
  for (let i = 0; i < 20; i++)
    await client.send(
      new PutItemCommand({ TableName: data, Item: dataItem(`QUEUE#${SESSION}`, `E#${pad(i)}`, i, true) }),
    );
  const pollKeys = Array.from({ length: 6 }, (_, k) => ({ pk: s(`PARENT#1`), sk: s(`K#${k}`) }));
  for (const key of pollKeys)
    await client.send(new PutItemCommand({ TableName: data, Item: { ...key, body: s('y'.repeat(200)) } }));
  const liveKey = { pk: s(`SESSION#${SESSION}`), sk: s('EVENT_SEQ') };
  await client.send(new PutItemCommand({ TableName: connections, Item: { ...liveKey, value: n(0) } }));

  let written = 0;
  const transactionInput = (shape: TransactionShape): TransactWriteItemsCommandInput => {
    const id = ++written;
    const conditioned = (k: number) =>
      shape.conditions === 'all' || ((shape.conditions ?? 'first') === 'first' && k === 0);
    return {
      ...(shape.capacity ? { ReturnConsumedCapacity: shape.capacity } : {}),
      TransactItems: Array.from({ length: shape.items }, (_, k) =>
        shape.twoTables && k === shape.items - 1
          ? {
              Update: {
                TableName: connections,
                Key: liveKey,
                ...ADD_ONE,
              },
            }
          : {
              Put: {
                TableName: data,
                Item: dataItem(`CHANGE#${id % 500}`, `ITEM#${k}`, id, false),
                ...(conditioned(k)
                  ? {
                      ConditionExpression: 'attribute_not_exists(pk) OR version < :v',
                      ExpressionAttributeValues: { ':v': n(id) },
                      ...(shape.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
                    }
                  : {}),
              },
            },
      ),
    };
  };
  const transact =
    (shape: TransactionShape, via = client) =>
    () =>
      via.send(new TransactWriteItemsCommand(transactionInput(shape)));
  const pollBatch = (capacity?: ReturnConsumedCapacity) => () =>
    client.send(
      new BatchGetItemCommand({
        ...(capacity ? { ReturnConsumedCapacity: capacity } : {}),
        RequestItems: { [data]: { Keys: pollKeys }, [connections]: { Keys: [liveKey] } },
      }),
    );
  const lineQuery = (capacity?: ReturnConsumedCapacity) => () =>
    client.send(
      new QueryCommand({
        ...(capacity ? { ReturnConsumedCapacity: capacity } : {}),
        TableName: data,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': s(`SESSION#${SESSION}#ACTIVE`) },
      }),
    );

  if (PART === 0 || PART === 1 || PART === 4) {
    const every: Record<string, () => Promise<unknown>> = {
      'tx 6, TOTAL (the meter today)': transact({ items: 6, capacity: 'TOTAL' }),
      'tx 6, INDEXES': transact({ items: 6, capacity: 'INDEXES' }),
      'tx 6, NONE': transact({ items: 6 }),
      'tx 6, NONE, no ClientRequestToken': transact({ items: 6 }, tokenless),
      'tx 6, NONE, ALL_OLD on its condition': transact({ items: 6, returnOld: true }),
      'tx 6, NONE, no condition': transact({ items: 6, conditions: 'none' }),
      'tx 6, NONE, every item conditioned': transact({ items: 6, conditions: 'all' }),
      'tx 6, NONE, two tables (5 + 1)': transact({ items: 6, twoTables: true }),
      'tx 6, TOTAL, two tables (5 + 1)': transact({ items: 6, capacity: 'TOTAL', twoTables: true }),
      'tx 3, NONE': transact({ items: 3 }),
      'tx 1, NONE': transact({ items: 1 }),
      'tx 1, TOTAL': transact({ items: 1, capacity: 'TOTAL' }),
      'BatchWriteItem 6 (no transaction)': () => {
        const id = ++written;
        return client.send(
          new BatchWriteItemCommand({
            RequestItems: {
              [data]: Array.from({ length: 6 }, (_, k) => ({
                PutRequest: { Item: dataItem(`BATCH#${id % 500}`, `ITEM#${k}`, id, false) },
              })),
            },
          }),
        );
      },
      'PutItem (the floor’s)': () => {
        const id = ++written;
        return client.send(
          new PutItemCommand({ TableName: data, Item: dataItem(`PUT#${id % 500}`, 'I', id, false) }),
        );
      },
      'poll BatchGetItem 6 + 1 keys, TOTAL': pollBatch('TOTAL'),
      'poll BatchGetItem 6 + 1 keys, NONE': pollBatch(),
      'line Query (20 cars, gsi1), TOTAL': lineQuery('TOTAL'),
      'line Query (20 cars, gsi1), NONE': lineQuery(),
    };
    // `--part 4`: only the pairs that differ by the units asked for, more rounds of them.
    const focus = new Set([
      'tx 6, TOTAL (the meter today)',
      'tx 6, NONE',
      'tx 6, NONE, two tables (5 + 1)',
      'tx 6, TOTAL, two tables (5 + 1)',
      'tx 1, NONE',
      'tx 1, TOTAL',
      'PutItem (the floor’s)',
    ]);
    const entries = Object.entries(every).filter(([name]) => PART !== 4 || focus.has(name));
    console.log(`Part 1. Warming up DynamoDB Local: ${WARM} calls of each of ${entries.length} kinds…`);
    for (const [, run] of entries) for (let i = 0; i < WARM; i++) await run();
    const wall: Record<string, number[]> = {};
    const cpu: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const shift = round % entries.length;
      for (const [name, run] of [...entries.slice(shift), ...entries.slice(0, shift)]) {
        const before = procSeconds(java) ?? 0;
        for (let i = 0; i < CALLS; i++) {
          const started = performance.now();
          await run();
          into(wall, name).push(performance.now() - started);
        }
        into(cpu, name).push((((procSeconds(java) ?? 0) - before) * 1000) / CALLS);
      }
    }
    console.log(
      `\nAlone, one caller: ${CALLS} calls a round, ${ROUNDS} rounds (ms; wall p50 / p90 over all calls, Local's CPU a call: each round's, then their median)`,
    );
    for (const [name] of entries) {
      const calls = sorted(wall[name] ?? []);
      const rounds = cpu[name] ?? [];
      console.log(
        `${name.padEnd(40)}${percentile(calls, 50).toFixed(2).padStart(7)}${percentile(calls, 90).toFixed(2).padStart(7)}   cpu${rounds.map((ms) => ms.toFixed(2).padStart(6)).join('')}   ${percentile(sorted(rounds), 50).toFixed(2)}`,
      );
    }
  }

  if (PART === 0 || PART === 2) {
    interface Figures {
      change: number[];
      poll: number[];
      batch: number[];
      query: number[];
      cpu: number;
    }
    /** The changes' transactions and the polls' reads, sent as the variant says. */
    const variants: Array<[string, TransactionShape, ReturnConsumedCapacity | undefined]> = [
      ['capacity asked on every call (today)', { items: 6, capacity: 'TOTAL' }, 'TOTAL'],
      ['none on transactions, TOTAL on reads', { items: 6 }, 'TOTAL'],
      ['none on any call (meter off)', { items: 6 }, undefined],
      ['4-item transactions, TOTAL on reads', { items: 4 }, 'TOTAL'],
    ];
    const run = async (
      shape: TransactionShape,
      reads: ReturnConsumedCapacity | undefined,
      seconds: number,
    ) => {
      const figures: Figures = { change: [], poll: [], batch: [], query: [], cpu: 0 };
      const until = performance.now() + seconds * 1000;
      const change = transact(shape);
      const batch = pollBatch(reads);
      const query = lineQuery(reads);
      const before = procSeconds(java) ?? 0;
      const changer = async () => {
        while (performance.now() < until) {
          const started = performance.now();
          await change();
          figures.change.push(performance.now() - started);
        }
      };
      const poller = async () => {
        while (performance.now() < until) {
          const started = performance.now();
          await Promise.all([
            batch().then(() => figures.batch.push(performance.now() - started)),
            query().then(() => figures.query.push(performance.now() - started)),
          ]);
          figures.poll.push(performance.now() - started);
        }
      };
      await Promise.all([
        ...Array.from({ length: CHANGES }, changer),
        ...Array.from({ length: POLLS }, poller),
      ]);
      figures.cpu = ((procSeconds(java) ?? 0) - before) * 1000;
      return figures;
    };
    console.log(`\nPart 2. Warming up: ${SECONDS} s of each of ${variants.length} variants…`);
    for (const [, shape, reads] of variants) await run(shape, reads, SECONDS);
    const all: Record<string, Figures> = {};
    const p50 = (list: number[]) => percentile(sorted(list), 50).toFixed(1);
    for (let round = 0; round < ROUNDS; round++) {
      const shift = round % variants.length;
      for (const [name, shape, reads] of [...variants.slice(shift), ...variants.slice(0, shift)]) {
        const figures = await run(shape, reads, SECONDS);
        all[name] ??= { change: [], poll: [], batch: [], query: [], cpu: 0 };
        const into = all[name];
        into.change.push(...figures.change);
        into.poll.push(...figures.poll);
        into.batch.push(...figures.batch);
        into.query.push(...figures.query);
        into.cpu += figures.cpu;
        console.log(
          `round ${round + 1} ${name.padEnd(38)} changes ${String(figures.change.length).padStart(5)} p50 ${p50(figures.change)}; polls ${String(figures.poll.length).padStart(5)} p50 ${p50(figures.poll)} (BatchGetItem ${p50(figures.batch)}, Query ${p50(figures.query)})`,
        );
      }
    }
    console.log(
      `\n${CHANGES} changers and ${POLLS} pollers at once, ${ROUNDS} rounds of ${SECONDS} s a variant (ms; all rounds together; Local's CPU a call of either kind)`,
    );
    const heads = [
      'changes',
      'p50',
      'p95',
      'polls',
      'p50',
      'p95',
      'batch p50',
      'p95',
      'query p50',
      'p95',
      'cpu/call',
    ];
    console.log(`${'variant'.padEnd(40)}${heads.map((h) => h.padStart(10)).join('')}`);
    for (const [name, figures] of Object.entries(all)) {
      const [change, polled, batch, query] = [figures.change, figures.poll, figures.batch, figures.query].map(
        sorted,
      ) as [number[], number[], number[], number[]];
      const cells = [
        String(change.length),
        ...medianAnd95(change),
        String(polled.length),
        ...medianAnd95(polled),
        ...medianAnd95(batch),
        ...medianAnd95(query),
        (figures.cpu / (change.length + 2 * polled.length)).toFixed(2),
      ];
      console.log(`${name.padEnd(40)}${cells.map((c) => c.padStart(10)).join('')}`);
    }
  }
  /**
   * Reads beside the changes' transactions (`CHANGES` changers of 6-item transactions, `POLLS`
   * readers), interleaved round by round with the order rotated; each read also 100 times alone a round.
   */
  const readsBeside = async (
    title: string,
    reads: Array<[string, () => Promise<unknown>]>,
    change: () => Promise<unknown> = transact({ items: 6 }),
  ) => {
    const run = async (read: () => Promise<unknown>, seconds: number) => {
      const times: number[] = [];
      const until = performance.now() + seconds * 1000;
      const changer = async () => {
        while (performance.now() < until) await change();
      };
      const reader = async () => {
        while (performance.now() < until) {
          const started = performance.now();
          await read();
          times.push(performance.now() - started);
        }
      };
      await Promise.all([
        ...Array.from({ length: CHANGES }, changer),
        ...Array.from({ length: POLLS }, reader),
      ]);
      return times;
    };
    console.log(`\n${title}. Warming up: ${SECONDS} s of each of ${reads.length} reads…`);
    for (const [, read] of reads) await run(read, SECONDS);
    const all: Record<string, number[]> = {};
    const alone: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const shift = round % reads.length;
      for (const [name, read] of [...reads.slice(shift), ...reads.slice(0, shift)]) {
        into(all, name).push(...(await run(read, SECONDS)));
        for (let i = 0; i < 100; i++) {
          const started = performance.now();
          await read();
          into(alone, name).push(performance.now() - started);
        }
      }
    }
    console.log(
      `\n${POLLS} readers beside ${CHANGES} changers (6-item transactions), ${ROUNDS} rounds of ${SECONDS} s a read (ms, all rounds); alone: 100 a round, one caller`,
    );
    console.log(
      `${'read'.padEnd(46)}${['reads', 'p50', 'p90', 'p95', 'alone p50'].map((h) => h.padStart(10)).join('')}`,
    );
    for (const [name] of reads) {
      const times = sorted(all[name] ?? []);
      const cells = [
        String(times.length),
        percentile(times, 50).toFixed(1),
        percentile(times, 90).toFixed(1),
        percentile(times, 95).toFixed(1),
        percentile(sorted(alone[name] ?? []), 50).toFixed(2),
      ];
      console.log(`${name.padEnd(46)}${cells.map((c) => c.padStart(10)).join('')}`);
    }
  };
  if (PART === 0 || PART === 3) {
    // Part 3: reads of k items beside the changes' transactions. Local reads a BatchGetItem's keys one
    // by one, each under the read side of its database-wide lock (`SQLiteDBAccess.getRecord`), and a
    // reader waits behind a transaction queued for the write side: does a read wait once per key?
    const farKeys = Array.from({ length: 7 }, (_, k) => ({ pk: s(`FAR#${k}`), sk: s('ITEM') }));
    for (const key of farKeys)
      await client.send(new PutItemCommand({ TableName: data, Item: { ...key, body: s('y'.repeat(200)) } }));
    await readsBeside('Part 3', [
      ...[1, 3, 7].map((k): [string, () => Promise<unknown>] => [
        `BatchGetItem of ${k} key${k > 1 ? 's' : ''}`,
        () =>
          client.send(new BatchGetItemCommand({ RequestItems: { [data]: { Keys: farKeys.slice(0, k) } } })),
      ]),
      [
        'Query of the 7 items of a partition',
        () =>
          client.send(
            new QueryCommand({
              TableName: data,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': s('PARENT#1') },
            }),
          ),
      ],
    ]);
  }
  if (PART === 5) {
    // Part 5 (h54o): the parent's whole poll (its BatchGetItem beside the line's Query) with the
    // session's latest pickups read by key on the live table (before) or kept on the instance (after),
    // for a parent of one child (sign-in 2, link, child, session, 2 marks: 7 data keys) and of two (11).
    const keysOf = (count: number) =>
      Array.from({ length: count }, (_, k) => ({ pk: s(`POLL#${k}`), sk: s('ITEM') }));
    for (const key of keysOf(11))
      await client.send(new PutItemCommand({ TableName: data, Item: { ...key, body: s('y'.repeat(200)) } }));
    const poll = (count: number, live: boolean) => () =>
      Promise.all([
        client.send(
          new BatchGetItemCommand({
            RequestItems: {
              [data]: { Keys: keysOf(count) },
              ...(live ? { [connections]: { Keys: [liveKey] } } : {}),
            },
          }),
        ),
        lineQuery()(),
      ]);
    // Each change as the rush makes it: its transaction, then its event's number taken on the live
    // table (`eventSequence.next`: an UpdateItem of the item the poll read by key before).
    const numbered = transact({ items: 6 });
    const change = async () => {
      await numbered();
      await client.send(new UpdateItemCommand({ TableName: connections, Key: liveKey, ...ADD_ONE }));
    };
    await readsBeside(
      'Part 5',
      [
        ['poll of 1 child, 7 + 1 keys, two tables (before)', poll(7, true)],
        ['poll of 1 child, 7 keys, one table (after)', poll(7, false)],
        ['poll of 2 children, 11 + 1 keys (before)', poll(11, true)],
        ['poll of 2 children, 11 keys (after)', poll(11, false)],
      ],
      change,
    );
  }
  client.destroy();
  tokenless.destroy();
  await local.stop();
};

runScript(main);
