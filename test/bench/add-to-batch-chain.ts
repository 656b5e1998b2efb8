/**
 * Add-to-batch's chain of calls for DynamoDB Local (issue 54, ADR 0027's
 * "(h54j)"): a press reads its batch by key beside the line's Query, then
 * commits a 4-item transaction (the batch, the entry, the record's event, the
 * Idempotency-Key's claim). As it was, the event's number (an ADD UpdateItem
 * on the live table) and the school's connections (a Query there) were read
 * after the commit, and a press refused by another tablet's add read its key
 * (GetItem) before answering 409; as built, where the line held two cars or
 * more, the number and the connections are read beside the transaction, and a
 * refusal whose transaction found the key free answers at once. Several
 * presses and parents' polls (a BatchGetItem of the session and the number's
 * item beside the line's Query) run at once against one Local of its own,
 * the two shapes interleaved round by round after a warm-up; a share of the
 * presses' transactions is refused (`--refused`, percent: the rush's racing
 * tablets refused some 28%). Wall times on a shared machine: compare the
 * shapes within a round.
 *
 *   npx tsx test/bench/add-to-batch-chain.ts [--seconds 8] [--rounds 4] [--warm 8] [--presses 4] [--polls 4] [--refused 28]
 */
import {
  type AttributeValue,
  BatchGetItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { ADD_ONE, localTables } from './local-tables';
import { numericArgs, runScript } from './script';
import { percentile } from './stats';

const args = numericArgs({ seconds: 8, rounds: 4, warm: 8, presses: 4, polls: 4, refused: 28 });

const s = (value: string): AttributeValue => ({ S: value });
const n = (value: number): AttributeValue => ({ N: String(value) });
const SESSION = { pk: s('SESSION#7'), sk: s('SESSION') };
const NUMBER = { pk: s('SESSION#7'), sk: s('EVENT_SEQ') };
const BATCH = { pk: s('BATCH#1'), sk: s('BATCH') };
const LINE = 'SESSION#7#WAITING#car';
const padded = (i: number) => String(i).padStart(6, '0');

type Shape = 'after the commit (as it was)' | 'beside the transaction (h54j)';
interface Figures {
  added: number[];
  refused: number[];
  poll: number[];
}

const main = async () => {
  const data = 'add-to-batch-chain';
  const { local, connections: live, client } = await localTables(data);
  const put = (table: string, item: Record<string, AttributeValue>) =>
    client.send(new PutItemCommand({ TableName: table, Item: item }));

  await put(data, { ...SESSION, status: s('active') });
  await put(data, { ...BATCH, currentCount: n(0), version: n(1) });
  await put(live, { ...NUMBER, value: n(0) });
  // The line the presses read (8 waiting cars, each some 400 bytes) and the school's 44 connection rows.
  for (let i = 0; i < 8; i++)
    await put(data, {
      pk: s(`QUEUE#7`),
      sk: s(`E#${padded(i)}`),
      gsi1pk: s(LINE),
      gsi1sk: s(padded(i)),
      students: s('x'.repeat(300)),
    });
  for (let i = 0; i < 44; i++)
    await put(live, { pk: s('SCHOOL#1'), sk: s(`CONN#${padded(i)}`), channels: s('staff#1 queue#1') });

  /** The waiting line's Query (the first `limit` cars: a press's; all of them: a poll's). */
  const lineRead = (limit?: number) =>
    client.send(
      new QueryCommand({
        TableName: data,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': s(LINE) },
        ...(limit ? { Limit: limit } : {}),
      }),
    );
  const firstReads = () =>
    Promise.all([
      client.send(new BatchGetItemCommand({ RequestItems: { [data]: { Keys: [SESSION, BATCH] } } })),
      lineRead(4),
    ]);
  let presses = 0;
  /** The press's transaction; refused (the entry's condition) for `--refused` percent of them. */
  const transaction = async (id: number, refused: boolean) => {
    try {
      await client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Update: {
                TableName: data,
                Key: BATCH,
                UpdateExpression: 'ADD currentCount :one, version :one',
                ExpressionAttributeValues: { ':one': n(1) },
              },
            },
            {
              Put: {
                TableName: data,
                Item: { pk: s(`ENTRY#${id}`), sk: s('ENTRY'), students: s('x'.repeat(300)) },
                ConditionExpression: refused ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: data,
                Item: { pk: s(`EVENT#${id}`), sk: s('EVENT'), body: s('x'.repeat(200)) },
              },
            },
            {
              Put: {
                TableName: data,
                Item: { pk: s(`IDEMPOTENCY#${id}`), sk: s('IDEMPOTENCY'), answer: s('x'.repeat(300)) },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return true;
    } catch {
      return false;
    }
  };
  const numberAndConnections = () =>
    Promise.all([
      client.send(
        new UpdateItemCommand({
          TableName: live,
          Key: NUMBER,
          ...ADD_ONE,
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
      client.send(
        new QueryCommand({
          TableName: live,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': s('SCHOOL#1') },
        }),
      ),
    ]);
  const press = (shape: Shape) => async (figures: Figures) => {
    const started = performance.now();
    const id = ++presses;
    const refused = (id * 37) % 100 < args.refused;
    await firstReads();
    let committed: boolean;
    if (shape === 'beside the transaction (h54j)') {
      [committed] = await Promise.all([transaction(id, refused), numberAndConnections()]);
    } else {
      committed = await transaction(id, refused);
      if (committed) await numberAndConnections();
      else
        await client.send(
          new GetItemCommand({
            TableName: data,
            Key: { pk: s(`IDEMPOTENCY#k${id}`), sk: s('I') },
            ConsistentRead: true,
          }),
        );
    }
    (committed ? figures.added : figures.refused).push(performance.now() - started);
  };
  const poll = async (figures: Figures) => {
    const started = performance.now();
    await Promise.all([
      client.send(
        new BatchGetItemCommand({
          RequestItems: { [data]: { Keys: [SESSION] }, [live]: { Keys: [NUMBER] } },
        }),
      ),
      lineRead(),
    ]);
    figures.poll.push(performance.now() - started);
  };

  const run = async (shape: Shape, seconds: number): Promise<Figures> => {
    const figures: Figures = { added: [], refused: [], poll: [] };
    const until = performance.now() + seconds * 1000;
    const loop = (one: (f: Figures) => Promise<void>) => async () => {
      while (performance.now() < until) await one(figures);
    };
    await Promise.all([
      ...Array.from({ length: args.presses }, loop(press(shape))),
      ...Array.from({ length: args.polls }, loop(poll)),
    ]);
    return figures;
  };

  const shapes: Shape[] = ['after the commit (as it was)', 'beside the transaction (h54j)'];
  console.log(`Warming up DynamoDB Local: ${args.warm} s of each shape…`);
  for (const shape of shapes) await run(shape, args.warm);
  const all = new Map<Shape, Figures>();
  const p50 = (list: readonly number[]) => percentile(Float64Array.from(list).sort(), 0.5).toFixed(1);
  const p95 = (list: readonly number[]) => percentile(Float64Array.from(list).sort(), 0.95).toFixed(1);
  for (let round = 0; round < args.rounds; round++) {
    for (const shape of round % 2 === 0 ? shapes : [...shapes].reverse()) {
      const figures = await run(shape, args.seconds);
      const into = all.get(shape) ?? { added: [], refused: [], poll: [] };
      into.added.push(...figures.added);
      into.refused.push(...figures.refused);
      into.poll.push(...figures.poll);
      all.set(shape, into);
      console.log(
        `round ${round + 1} ${shape.padEnd(30)} added ${figures.added.length} p50 ${p50(figures.added)} ms; refused ${figures.refused.length} p50 ${p50(figures.refused)}; polls ${figures.poll.length} p50 ${p50(figures.poll)}`,
      );
    }
  }
  console.log(
    `\n${args.presses} presses (${args.refused}% refused) and ${args.polls} polls at once, ${args.rounds} rounds of ${args.seconds} s a shape (ms, p50 / p95, all rounds)`,
  );
  for (const [shape, { added, refused, poll: polls }] of all)
    console.log(
      `${shape.padEnd(30)} added ${added.length} ${p50(added)} / ${p95(added)}; refused ${refused.length} ${p50(refused)} / ${p95(refused)}; polls ${polls.length} ${p50(polls)} / ${p95(polls)}`,
    );
  client.destroy();
  await local.stop();
};

runScript(main);
