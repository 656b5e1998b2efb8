/**
 * What a bus position's write costs DynamoDB Local (issue 54, ADR 0027's
 * "(h54zg)"): Local's own CPU (`/proc/{pid}/stat` of its Java process) per
 * call, for the store's `busPositions.put` and the ways it could be written
 * instead, on a data table (two GSIs) and a connection table (none) of a
 * Local of its own with the JVM's defaults (as the laptop and the benchmark
 * run it). Interleaved round by round, the order rotated each round, after
 * a warm-up (Local's JIT: a cold Local costs 2–4× as much a call), so that
 * other work on the machine falls on every variant alike. Linux only.
 *
 * With `--parallel k`, k callers at once (as the rush's requests meet in
 * Local); a write a concurrent one overtook is refused and counted as called.
 *
 *   npx tsx test/bench/local-writes.ts [--calls 500] [--rounds 6] [--warm 3000] [--parallel 1]
 */
import {
  type AttributeValue,
  type DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { ensureTable, localDynamoClient, startDynamoLocal } from '@curbside/local';
import { busPositions, connectionTableNameFor, createDb } from '@curbside/store';
import { javaChild, procSeconds } from './cpu';
import { numericArgs, runScript } from './script';

const {
  calls: CALLS,
  rounds: ROUNDS,
  warm: WARM,
  parallel: PARALLEL,
} = numericArgs({ calls: 500, rounds: 6, warm: 3000, parallel: 1 });

/** `calls` calls of `run`, `PARALLEL` at a time; a condition refused (an overtaken write) counts as a call. */
const callMany = async (run: (i: number) => Promise<unknown>, calls: number) => {
  let next = 0;
  const caller = async () => {
    while (next < calls) {
      const i = next++;
      try {
        await run(i);
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, caller));
};
const FLEET = 20;
const SCHOOL = 1;

const n = (value: number): AttributeValue => ({ N: String(value) });
const s = (value: string): AttributeValue => ({ S: value });

/** A position as the driver page sends it (`BusLocation`), taken at `at`. */
const location = (at: number) => ({
  latitude: 40.1 + (at % 1000) * 1e-6,
  longitude: -75.2,
  timestamp: at,
  speed: 8.5,
  accuracy: 6,
  heading: 90,
});
const locationValue = (at: number): AttributeValue => ({
  M: Object.fromEntries(Object.entries(location(at)).map(([name, value]) => [name, n(value)])),
});

/** `busPositions.put`'s item, in DynamoDB's own shape (its keys under `prefix`, so variants keep apart). */
const positionItem = (prefix: string, bus: number, at: number): Record<string, AttributeValue> => ({
  pk: s(`SCHOOL#${SCHOOL}#BUSES`),
  sk: s(`BUS#${prefix}${bus}`),
  entity: s('busPosition'),
  busId: s(`${prefix}${bus}`),
  location: locationValue(at),
  updatedAt: n(at),
  ttl: n(Math.ceil((at + 300_000) / 1000)),
});

const newerOnly = {
  ConditionExpression: 'attribute_not_exists(pk) OR #location.#taken < :taken',
  ExpressionAttributeNames: { '#location': 'location', '#taken': 'timestamp' },
};

const main = async () => {
  const local = await startDynamoLocal({ inMemory: true });
  const java = javaChild();
  if (java === undefined) throw new Error('DynamoDB Local’s process was not found (Linux only).');
  const tableName = 'local-writes';
  const connectionTable = connectionTableNameFor(tableName);
  await ensureTable({ endpoint: local.endpoint, tableName });
  await ensureTable({ endpoint: local.endpoint, tableName: connectionTable, kind: 'connections' });
  const db = createDb({ table: tableName, endpoint: local.endpoint, meter: false });
  const client: DynamoDBClient = localDynamoClient(local.endpoint);

  let clock = Date.now();
  const put = (table: string, prefix: string, condition: boolean) => async (i: number) => {
    const at = ++clock;
    await client.send(
      new PutItemCommand({
        TableName: table,
        Item: positionItem(prefix, i % FLEET, at),
        ...(condition ? { ...newerOnly, ExpressionAttributeValues: { ':taken': n(at) } } : {}),
      }),
    );
  };
  const fanOutSecond = 5_000_000;
  await busPositions.claimFanOut(db, SCHOOL, 1000, fanOutSecond * 1000);

  const variants: Record<string, (i: number) => Promise<unknown>> = {
    'busPositions.put (data table, as is)': (i) => {
      const at = ++clock;
      return busPositions.put(db, SCHOOL, `B${i % FLEET}`, location(at), at);
    },
    'the same Put, connection table': put(connectionTable, 'C', true),
    'Put without condition, data table': put(tableName, 'U', false),
    'Put without condition, connection': put(connectionTable, 'V', false),
    'Put, condition on a top-level number': async (i) => {
      const at = ++clock;
      await client.send(
        new PutItemCommand({
          TableName: tableName,
          Item: { ...positionItem('T', i % FLEET, at), taken: n(at) },
          ConditionExpression: 'attribute_not_exists(pk) OR taken < :taken',
          ExpressionAttributeValues: { ':taken': n(at) },
        }),
      );
    },
    'UpdateItem, same condition, data': async (i) => {
      const at = ++clock;
      const { pk, sk, ...rest } = positionItem('W', i % FLEET, at);
      await client.send(
        new UpdateItemCommand({
          TableName: tableName,
          Key: { pk: pk as AttributeValue, sk: sk as AttributeValue },
          UpdateExpression:
            'SET entity = :entity, busId = :busId, #location = :location, updatedAt = :updatedAt, #ttl = :ttl',
          ConditionExpression: newerOnly.ConditionExpression,
          ExpressionAttributeNames: { ...newerOnly.ExpressionAttributeNames, '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':entity': rest.entity as AttributeValue,
            ':busId': rest.busId as AttributeValue,
            ':location': rest.location as AttributeValue,
            ':updatedAt': rest.updatedAt as AttributeValue,
            ':ttl': rest.ttl as AttributeValue,
            ':taken': n(at),
          },
        }),
      );
    },
    'claimFanOut refused (second taken)': () =>
      busPositions.claimFanOut(db, SCHOOL, 1000, fanOutSecond * 1000 + 500),
    'busPositions.ofSchool (a map, Query)': () => busPositions.ofSchool(db, SCHOOL),
  };

  const entries = Object.entries(variants);
  console.log(`Warming up DynamoDB Local: ${WARM} calls of each of ${entries.length} kinds…`);
  for (const [, run] of entries) await callMany(run, WARM);
  const perCall: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const shift = round % entries.length;
    for (const [name, run] of [...entries.slice(shift), ...entries.slice(0, shift)]) {
      const before = procSeconds(java) ?? 0;
      await callMany(run, CALLS);
      const ms = (((procSeconds(java) ?? 0) - before) * 1000) / CALLS;
      perCall[name] = [...(perCall[name] ?? []), ms];
    }
  }
  console.log(
    `DynamoDB Local's CPU per call, ms (${CALLS} calls a round, ${PARALLEL} at a time, ${ROUNDS} rounds; the median last)`,
  );
  for (const [name, rounds] of Object.entries(perCall)) {
    const median = [...rounds].sort((a, b) => a - b)[Math.floor(rounds.length / 2)] ?? Number.NaN;
    console.log(
      `${name.padEnd(40)}${rounds.map((ms) => ms.toFixed(2).padStart(6)).join('')}   ${median.toFixed(2)}`,
    );
  }
  client.destroy();
  await local.stop();
};

runScript(main);
