/**
 * Where a session's event number should live for DynamoDB Local (issue 54,
 * ADR 0027's "(h54zi)"): Local keeps one read-write lock per table, every
 * write takes its table's write lock and every read its read lock. A change
 * commits its transaction on the data table and then (or beside it) takes its
 * event's number, an ADD UpdateItem on `EVENT_SEQ`, beside the fan-out's
 * Query of the connection table; a poll reads the number's item by key with
 * the session in one BatchGetItem beside a Query of the line. With the number
 * on the data table its UpdateItem waits for that table's lock behind every
 * other change's transaction and every poll's reads; on the connection table
 * it waits only for that table's Queries. This measures, with several changes
 * and polls at once against one Local of its own (the JVM's defaults), each
 * change's and poll's wall time and the number's own UpdateItem, the counter
 * on one table and then on the other, interleaved round by round (the order
 * rotated), after a warm-up. Wall times on a shared machine: compare the
 * placements within a round. The third placement adds the buses' 20 positions a
 * second (PutItem) on the connection table, should the relay's state move there
 * too (h54zh).
 *
 *   npx tsx test/bench/sequence-lock.ts [--seconds 10] [--rounds 6] [--warm 10] [--changes 4] [--polls 4]
 */
import {
  type AttributeValue,
  BatchGetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { dataItem, localTables, medianAnd95, n, pad, percentile, SESSION, s } from './local-tables';
import { numericArgs, runScript } from './script';

const {
  seconds: SECONDS,
  rounds: ROUNDS,
  warm: WARM_SECONDS,
  changes: CHANGES,
  polls: POLLS,
} = numericArgs({ seconds: 10, rounds: 6, warm: 10, changes: 4, polls: 4 });

interface Figures {
  change: number[];
  number: number[];
  poll: number[];
  /** The poll's BatchGetItem alone. */
  batch: number[];
}

const main = async () => {
  const data = 'sequence-lock';
  const { local, connections, client } = await localTables(data);

  // The line: 20 active cars (the poll's Query); the school's 44 connection rows a fan-out reads (h54zf).
  for (let i = 0; i < 20; i++)
    await client.send(
      new PutItemCommand({ TableName: data, Item: dataItem(`QUEUE#${SESSION}`, `E#${pad(i)}`, i, true) }),
    );
  for (let i = 0; i < 44; i++)
    await client.send(
      new PutItemCommand({
        TableName: connections,
        Item: { pk: s('SCHOOL#1'), sk: s(`CONN#${pad(i)}`), channels: s('staff#1 queue#1'), userId: n(i) },
      }),
    );
  const session = { pk: s(`SESSION#${SESSION}`), sk: s('SESSION') };
  await client.send(new PutItemCommand({ TableName: data, Item: { ...session, status: s('active') } }));

  let written = 0;
  /** A change: its 6-item transaction, then its number beside the fan-out's Query (the answer waits for both). */
  const change = (counter: string) => async (figures: Figures) => {
    const started = performance.now();
    const id = ++written;
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: Array.from({ length: 6 }, (_, k) => ({
          Put: {
            TableName: data,
            Item: dataItem(`CHANGE#${id % 500}`, `ITEM#${k}`, id, false),
            ...(k === 0 ? { ConditionExpression: 'attribute_not_exists(pk) OR version < :v' } : {}),
            ...(k === 0 ? { ExpressionAttributeValues: { ':v': n(id) } } : {}),
          },
        })),
      }),
    );
    const numbered = performance.now();
    await Promise.all([
      client
        .send(
          new UpdateItemCommand({
            TableName: counter,
            Key: { pk: s(`SESSION#${SESSION}`), sk: s('EVENT_SEQ') },
            UpdateExpression: 'ADD #value :one',
            ExpressionAttributeNames: { '#value': 'value' },
            ExpressionAttributeValues: { ':one': n(1) },
            ReturnValues: 'UPDATED_NEW',
          }),
        )
        .then(() => figures.number.push(performance.now() - numbered)),
      client.send(
        new QueryCommand({
          TableName: connections,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': s('SCHOOL#1') },
        }),
      ),
    ]);
    figures.change.push(performance.now() - started);
  };
  /**
   * A parent's poll: the session and the number's item by key (one BatchGetItem), beside the
   * line's Query; `sampleOnData`: the item it reads is the data table's whatever the counter's place.
   */
  const poll = (counter: string, sampleOnData: boolean) => async (figures: Figures) => {
    const started = performance.now();
    const counterKey = { pk: s(`SESSION#${SESSION}`), sk: s('EVENT_SEQ') };
    const requestItems: Record<string, { Keys: Record<string, AttributeValue>[] }> =
      counter === data || sampleOnData
        ? { [data]: { Keys: [session, counterKey] } }
        : { [data]: { Keys: [session] }, [counter]: { Keys: [counterKey] } };
    await Promise.all([
      client
        .send(new BatchGetItemCommand({ RequestItems: requestItems }))
        .then(() => figures.batch.push(performance.now() - started)),
      client.send(
        new QueryCommand({
          TableName: data,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': s(`SESSION#${SESSION}#ACTIVE`) },
        }),
      ),
    ]);
    figures.poll.push(performance.now() - started);
  };

  /** 20 buses' positions a second on `table` (a PutItem each, 50 ms apart), until `until`. */
  const positions = async (table: string, until: number) => {
    for (let i = 0; performance.now() < until; i++) {
      const next = performance.now() + 50;
      await client.send(
        new PutItemCommand({
          TableName: table,
          Item: {
            pk: s('SCHOOL#1#BUSES'),
            sk: s(`BUS#${i % 20}`),
            at: n(Date.now()),
            where: s('x'.repeat(120)),
          },
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
  };

  /** `CHANGES` changers and `POLLS` pollers, each one after another, for `seconds` (with the buses' positions). */
  const run = async (
    counter: string,
    seconds: number,
    buses: boolean,
    sampleOnData: boolean,
  ): Promise<Figures> => {
    const figures: Figures = { change: [], number: [], poll: [], batch: [] };
    const until = performance.now() + seconds * 1000;
    const loop = (one: (f: Figures) => Promise<void>) => async () => {
      while (performance.now() < until) await one(figures);
    };
    await Promise.all([
      ...Array.from({ length: CHANGES }, loop(change(counter))),
      ...Array.from({ length: POLLS }, loop(poll(counter, sampleOnData))),
      ...(buses ? [positions(connections, until)] : []),
    ]);
    return figures;
  };

  const placements: Array<[string, string, boolean, boolean]> = [
    ['counter on the data table', data, false, false],
    ['counter on the connection table', connections, false, false],
    ['the same, positions there too', connections, true, false],
    ['the same, the poll reading data only', connections, false, true],
  ];
  console.log(`Warming up DynamoDB Local: ${WARM_SECONDS} s of each placement…`);
  for (const [, table, buses, sampleOnData] of placements)
    await run(table, WARM_SECONDS, buses, sampleOnData);
  const all: Record<string, Figures> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const shift = round % placements.length;
    for (const [name, table, buses, sampleOnData] of [
      ...placements.slice(shift),
      ...placements.slice(0, shift),
    ]) {
      const figures = await run(table, SECONDS, buses, sampleOnData);
      all[name] ??= { change: [], number: [], poll: [], batch: [] };
      const into = all[name];
      into.change.push(...figures.change);
      into.number.push(...figures.number);
      into.poll.push(...figures.poll);
      into.batch.push(...figures.batch);
      const p50 = (list: number[]) =>
        percentile(
          [...list].sort((a, b) => a - b),
          50,
        ).toFixed(1);
      console.log(
        `round ${round + 1} ${name.padEnd(36)} changes ${String(figures.change.length).padStart(5)} p50 ${p50(figures.change)} ms, number p50 ${p50(figures.number)} ms; polls ${String(figures.poll.length).padStart(5)} p50 ${p50(figures.poll)} ms (its BatchGetItem ${p50(figures.batch)})`,
      );
    }
  }
  console.log(
    `\n${CHANGES} changes and ${POLLS} polls at once, ${ROUNDS} rounds of ${SECONDS} s each placement (ms; all rounds together)`,
  );
  console.log(
    `${'placement'.padEnd(36)}${[
      'changes',
      'change p50',
      'p95',
      'number p50',
      'p95',
      'polls',
      'poll p50',
      'p95',
      'batch p50',
      'p95',
    ]
      .map((h) => h.padStart(11))
      .join('')}`,
  );
  for (const [name, figures] of Object.entries(all)) {
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    const [change, number, polled, batch] = [
      sorted(figures.change),
      sorted(figures.number),
      sorted(figures.poll),
      sorted(figures.batch),
    ];
    const cells = [
      String(change.length),
      ...medianAnd95(change),
      ...medianAnd95(number),
      String(polled.length),
      ...medianAnd95(polled),
      ...medianAnd95(batch),
    ];
    console.log(`${name.padEnd(36)}${cells.map((c) => c.padStart(11)).join('')}`);
  }
  client.destroy();
  await local.stop();
};

runScript(main);
