/**
 * The bell against one DynamoDB Local (issue 54, ADR 0027's "(h54k)"): the
 * rush's first seconds hold 95 bus releases (about 6 riders each, of a
 * teacher's 2–3 classrooms) and 8 walkers' releases (about 25 children each),
 * pressed by 34 teachers, each from a moment of their own in the first 5 s
 * and each press after their previous one, while the
 * screens' and parents' polls go on beside them. Each press makes a release's
 * DynamoDB calls as `releaseByWay` makes them (ADR 0027 "Bulk releases and the
 * tail", with the reports' items and sizes): the sign-in's BatchGetItem beside
 * a Query of each classroom's students; the plans, marks and upcoming items
 * by key; the marks, their event and the key's claim in one
 * TransactWriteItems; then the event's number (the live table), the school's
 * connections and, as it was, the key's answer (an UpdateItem of the data
 * table) together. The variants:
 *
 * - `answer after`: the key's answer kept by an UpdateItem after the
 *   transaction (the code before h54k);
 * - `answer in claim`: the answer in the claim the transaction writes (h54k);
 * - `lean marks`: that, with marks without the hallway's copies (the child's
 *   summary, the way) and index (gsi1): measured only, to know whether the
 *   items' size is a lever (the hallway display reads them);
 * - `per classroom`: that, with a transaction per classroom of the press
 *   (each with its event): measured only, whether shorter holds of Local's
 *   database lock shorten the polls' wait.
 *
 * Bells of every variant interleave, the order rotated each round, after a
 * warm-up; each bell writes a session of its own. Printed: the presses' p50 /
 * p99, the polls' p50 / p99 while the bell rang, how long the bell took and
 * Local's CPU in it; and a trace of the bus presses in the bell: each call in
 * order, its items, its time there (p50, p90 over the presses) and alone (the
 * same press by itself, a few before each bell, so under the same load), the
 * difference being its wait for Local.
 *
 *   npx tsx test/bench/bell.ts [--rounds 6] [--warm 2] [--polls 25] [--variants 4]
 */
import { loadavg } from 'node:os';
import {
  type AttributeValue,
  BatchGetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { javaChild, procSeconds } from './cpu';
import { localTables } from './local-tables';
import { numericArgs, runScript } from './script';
import { percentile as nearestRank } from './stats';

/** `polls`: polls a second beside the bell (the rush's first 15 s: 655 calls, about half of them polls). */
const {
  rounds: ROUNDS,
  warm: WARM,
  polls: POLLS,
  variants: SHOWN,
} = numericArgs({ rounds: 6, warm: 2, polls: 25, variants: 4 });

/** The benchmark's school at scale 1: 80 classrooms of 25, 34 teachers, 20 buses. */
const CLASSROOMS = 80;
const PER_ROOM = 25;
const TEACHERS = 34;
const BUS_PRESSES = 95;
const WALKER_PRESSES = 8;
const RIDERS_A_PRESS = 6;
const WALKERS_A_PRESS = 25;
/** How often a teacher looks at their screen (the rush's `TEACHER_LOOK_MS`): their first looks spread over it. */
const LOOK_MS = 5000;

type Item = Record<string, AttributeValue>;
/** A plain value in DynamoDB's shape. */
const av = (value: unknown): AttributeValue => {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (Array.isArray(value)) return { L: value.map(av) };
  return { M: itemOf(value as Record<string, unknown>) };
};
const itemOf = (value: Record<string, unknown>): Item =>
  Object.fromEntries(Object.entries(value).map(([name, v]) => [name, av(v)]));

type Variant = 'answer after' | 'answer in claim' | 'lean marks' | 'per classroom';
/** `--variants 2`: the first two alone (more bells of the change itself in the same time). */
const VARIANTS = (['answer after', 'answer in claim', 'lean marks', 'per classroom'] as Variant[]).slice(
  0,
  SHOWN,
);

/** One call of a press as the trace keeps it. */
interface Call {
  name: string;
  items: number;
  ms: number;
}

/** The nearest-rank percentile `p` (0–100) of some times. */
const percentile = (list: readonly number[], p: number) =>
  nearestRank(Float64Array.from(list).sort(), p / 100);

/** A teacher's classrooms: 3 for every third teacher, 2 for the others (80 in all, none shared). */
const roomsOfTeacher = (teacher: number) => {
  const first = Array.from({ length: teacher }, (_, t) => (t % 3 === 0 ? 3 : 2)).reduce((a, b) => a + b, 0);
  return Array.from({ length: teacher % 3 === 0 ? 3 : 2 }, (_, k) => (first + k) % CLASSROOMS);
};

const main = async () => {
  const data = 'bell';
  const { local, connections: live, client } = await localTables(data);
  /** Local's CPU seconds so far (Linux: 0 elsewhere). */
  const java = javaChild();
  const localSeconds = () => (java === undefined ? 0 : (procSeconds(java) ?? 0));
  const put = (table: string, item: Record<string, unknown>) =>
    client.send(new PutItemCommand({ TableName: table, Item: itemOf(item) }));

  // The school: classrooms with their students (a Query each), plans, a session's line, connections.
  const student = (room: number, i: number) => ({
    id: room * 100 + i,
    firstName: `First${i}`,
    lastName: `Lastname${room}`,
    grade: '3',
    classroomId: room,
  });
  for (let room = 0; room < CLASSROOMS; room++) {
    await put(data, { pk: 'SCHOOL#1', sk: `CLASSROOM#${room}`, entity: 'classroom', name: `Room ${room}` });
    for (let i = 0; i < PER_ROOM; i++) {
      const kid = student(room, i);
      await put(data, {
        pk: `SCHOOL#1#STUDENT#${kid.id}`,
        sk: 'STUDENT',
        gsi1pk: `SCHOOL#1#CLASSROOM#${room}`,
        gsi1sk: `${kid.lastName}#${kid.id}`,
        entity: 'student',
        ...kid,
      });
      await put(data, {
        pk: `SCHOOL#1#STUDENT#${kid.id}`,
        sk: 'PLAN',
        entity: 'dismissalPlan',
        plan: { mon: { mode: 'bus', vehicleId: 7 }, tue: { mode: 'walker' }, wed: { mode: 'car' } },
      });
    }
  }
  for (let i = 0; i < 20; i++)
    await put(data, {
      pk: 'QUEUE#1',
      sk: `E#${i}`,
      gsi1pk: 'SESSION#1#ACTIVE',
      gsi1sk: String(i).padStart(6, '0'),
      entity: 'queueEntry',
      students: 'x'.repeat(300),
    });
  for (let i = 0; i < 60; i++)
    await put(live, { pk: 'SCHOOL#1', sk: `CONN#${i}`, channels: 'staff#1 queue#1', userId: i });
  await put(data, { pk: 'SCHOOL#1', sk: 'SESSION', status: 'active' });

  let bells = 0;
  let written = 0;
  const timed = async (
    calls: Call[] | undefined,
    name: string,
    items: number,
    send: () => Promise<unknown>,
  ) => {
    // Kept in the order the calls start (those sent together, in the order they are sent).
    const call: Call = { name, items, ms: 0 };
    calls?.push(call);
    const started = performance.now();
    await send();
    call.ms = performance.now() - started;
  };
  const keysOf = (pks: readonly string[], sk: string) => pks.map((pk) => ({ pk: { S: pk }, sk: { S: sk } }));
  const batchGet = (calls: Call[] | undefined, name: string, keys: Item[]) =>
    Promise.all(
      Array.from({ length: Math.ceil(keys.length / 100) }, (_, k) =>
        timed(calls, name, Math.min(100, keys.length - k * 100), () =>
          client.send(
            new BatchGetItemCommand({
              RequestItems: { [data]: { Keys: keys.slice(k * 100, k * 100 + 100) } },
            }),
          ),
        ),
      ),
    );

  /**
   * One press of `rooms`' children: the walkers' (`bus` undefined: the first 25 walk) or the teacher's
   * `bus`-th bus press (6 riders of the children after the walkers).
   */
  const press = async (variant: Variant, session: number, rooms: number[], bus?: number, calls?: Call[]) => {
    const kids = rooms.flatMap((room) => Array.from({ length: PER_ROOM }, (_, i) => student(room, i)));
    const from = bus === undefined ? 0 : WALKERS_A_PRESS + bus * RIDERS_A_PRESS;
    const going = kids.slice(from, from + (bus === undefined ? WALKERS_A_PRESS : RIDERS_A_PRESS));
    const id = ++written;
    // 1. The sign-in's BatchGetItem (the user's session, the school's session, the classrooms, the bus, its
    //    riders and upcoming items) beside a Query of each classroom's students.
    await Promise.all([
      batchGet(calls, 'BatchGetItem (sign-in)', [
        ...keysOf([`USER#${id % 40}`, 'SCHOOL#1'], 'SESSION'),
        ...rooms.map((room) => ({ pk: { S: 'SCHOOL#1' }, sk: { S: `CLASSROOM#${room}` } })),
        ...(bus !== undefined
          ? keysOf(['SCHOOL#1#BUS#7'], 'RIDERS').concat(keysOf(['SCHOOL#1#BUS#7'], 'UPCOMING'))
          : []),
      ]),
      ...rooms.map((room) =>
        timed(calls, 'Query (classroom students)', PER_ROOM, () =>
          client.send(
            new QueryCommand({
              TableName: data,
              IndexName: 'gsi1',
              KeyConditionExpression: 'gsi1pk = :pk',
              ExpressionAttributeValues: { ':pk': { S: `SCHOOL#1#CLASSROOM#${room}` } },
            }),
          ),
        ),
      ),
    ]);
    // 2. Plans, marks and upcoming items by key (a bus's candidates; every child of the classrooms for walkers).
    const read = bus !== undefined ? going : kids;
    await batchGet(
      calls,
      'BatchGetItem (plans, marks, upcoming)',
      read.flatMap((kid) => [
        ...keysOf([`SCHOOL#1#STUDENT#${kid.id}`], 'PLAN'),
        { pk: { S: `RELEASE#${session}#CLASSROOM#${kid.classroomId}` }, sk: { S: `STUDENT#${kid.id}` } },
        ...keysOf([`SCHOOL#1#STUDENT#${kid.id}#CHANGES`], 'UPCOMING'),
      ]),
    );
    // 3. The marks, their event and the key's claim.
    const now = new Date().toISOString();
    const way =
      bus !== undefined ? { mode: 'bus', vehicleId: 7, name: 'Bus B7' } : { mode: 'walker', name: 'Walker' };
    const actor = { userId: id % 40, username: `teacher_${id % 40}`, role: 'teacher', name: 'Ms. Teacher' };
    const answer = JSON.stringify({ released: going.map((kid) => kid.id) });
    const claim = (withAnswer: boolean) => ({
      Put: {
        TableName: data,
        Item: itemOf({
          pk: `IDEMPOTENCY#USER#${id % 40}#${bells}-${id}`,
          sk: 'IDEMPOTENCY',
          fingerprint: 'f'.repeat(43),
          ...(withAnswer
            ? {
                state: 'answered',
                statusCode: 200,
                headers: { 'content-type': 'application/json' },
                body: answer,
              }
            : { state: 'applied', appliedAt: Date.now() }),
          expiresAt: Date.now() + 86_400_000,
          ttl: Math.ceil(Date.now() / 1000) + 86_400,
        }),
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
        ExpressionAttributeValues: { ':now': { N: String(Date.now()) } },
      },
    });
    const transaction = (group: typeof going, withClaim: boolean) => [
      ...group.map((kid) => ({
        Put: {
          TableName: data,
          Item: itemOf({
            pk: `RELEASE#${session}#CLASSROOM#${kid.classroomId}`,
            sk: `STUDENT#${kid.id}`,
            ...(variant === 'lean marks'
              ? {}
              : { gsi1pk: `RELEASE#${session}#WAYS`, gsi1sk: `${now}#${String(kid.id).padStart(10, '0')}` }),
            entity: 'release',
            studentId: kid.id,
            ...(variant === 'lean marks' ? {} : { student: kid, way }),
            releasedAt: now,
            releasedBy: actor,
            ttl: Math.ceil(Date.now() / 1000) + 86_400 * 30,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      })),
      {
        Put: {
          TableName: data,
          Item: itemOf({
            pk: `EVENTS#${session}`,
            sk: `${now}#00${id}`,
            entity: 'dismissalEvent',
            schoolId: 1,
            sessionId: session,
            at: now,
            actor,
            kind: 'students_released',
            entries: [],
            students: group,
            way,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...(withClaim ? [claim(variant !== 'answer after')] : []),
    ];
    const groups =
      variant === 'per classroom'
        ? rooms
            .map((room) => going.filter((kid) => kid.classroomId === room))
            .filter((group) => group.length > 0)
        : [going];
    for (const [k, group] of groups.entries()) {
      const items = transaction(group, k === 0);
      await timed(calls, 'TransactWriteItems', items.length, () =>
        client.send(new TransactWriteItemsCommand({ TransactItems: items })),
      );
    }
    // 4. The event's number, the school's connections and (as it was) the key's answer, together.
    await Promise.all([
      timed(calls, 'UpdateItem (event number, live table)', 1, () =>
        client.send(
          new UpdateItemCommand({
            TableName: live,
            Key: itemOf({ pk: `SESSION#${session}`, sk: 'EVENT_SEQ' }),
            UpdateExpression: 'ADD #value :one',
            ExpressionAttributeNames: { '#value': 'value' },
            ExpressionAttributeValues: { ':one': { N: '1' } },
          }),
        ),
      ),
      timed(calls, 'Query (school connections, live table)', 60, () =>
        client.send(
          new QueryCommand({
            TableName: live,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': { S: 'SCHOOL#1' } },
          }),
        ),
      ),
      variant === 'answer after'
        ? timed(calls, "UpdateItem (key's answer)", 1, () =>
            client.send(
              new UpdateItemCommand({
                TableName: data,
                Key: itemOf({ pk: `IDEMPOTENCY#USER#${id % 40}#${bells}-${id}`, sk: 'IDEMPOTENCY' }),
                UpdateExpression: 'SET #state = :s, statusCode = :c, body = :b',
                ExpressionAttributeNames: { '#state': 'state' },
                ExpressionAttributeValues: itemOf({ ':s': 'answered', ':c': 200, ':b': answer }),
              }),
            ),
          )
        : undefined,
    ]);
  };

  /** A poll: a parent's (a BatchGetItem of 5 keys) or a screen's (a Query of the line), one after another. */
  const poll = async (k: number) => {
    if (k % 2 === 0)
      await client.send(
        new BatchGetItemCommand({
          RequestItems: {
            [data]: {
              Keys: [...keysOf(['SCHOOL#1'], 'SESSION'), ...keysOf(['SCHOOL#1#STUDENT#100'], 'PLAN')],
            },
            [live]: { Keys: keysOf(['SESSION#1'], 'EVENT_SEQ') },
          },
        }),
      );
    else
      await client.send(
        new QueryCommand({
          TableName: data,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: 'SESSION#1#ACTIVE' } },
        }),
      );
  };

  /** One bell of a variant: every teacher's presses, one after another, with the polls beside. */
  /** `traced`: the calls of every bus press of a teacher of two classrooms (their presses' calls alike). */
  const bell = async (variant: Variant, traced?: Call[][]) => {
    const session = 1000 + ++bells;
    const presses: number[] = [];
    const polls: number[] = [];
    let ringing = true;
    const started = performance.now();
    const teacher = async (t: number) => {
      // Each teacher looks at their screen from a moment of their own in the bell's first 5 s (as the rush's do).
      await new Promise((resolve) => setTimeout(resolve, (t * LOOK_MS) / TEACHERS));
      const rooms = roomsOfTeacher(t);
      const mine: Array<number | undefined> = [];
      if (t < WALKER_PRESSES) mine.push(undefined);
      for (let p = t, k = 0; p < BUS_PRESSES; p += TEACHERS, k++) mine.push(k);
      for (const bus of mine) {
        const calls: Call[] = [];
        const at = performance.now();
        await press(variant, session, rooms, bus, calls);
        presses.push(performance.now() - at);
        if (bus !== undefined && rooms.length === 2) traced?.push(calls);
      }
    };
    // The screens' and parents' polls at the rush's rate, each sent on time whatever the others' wait.
    const polling: Promise<void>[] = [];
    const poller = async () => {
      for (let k = 0; ringing; k++) {
        const at = performance.now();
        polling.push(poll(k).then(() => void polls.push(performance.now() - at)));
        await new Promise((resolve) => setTimeout(resolve, 1000 / POLLS));
      }
    };
    const cpu = localSeconds();
    const pollingDone = poller();
    await Promise.all(Array.from({ length: TEACHERS }, (_, t) => teacher(t)));
    const ms = performance.now() - started;
    ringing = false;
    await pollingDone;
    await Promise.all(polling);
    return { presses, polls, ms, localMs: (localSeconds() - cpu) * 1000 };
  };

  console.log(`Warming up DynamoDB Local: ${WARM} bells of each variant…`);
  for (let w = 0; w < WARM; w++) for (const variant of VARIANTS) await bell(variant);
  /** A bus press of a teacher of two classrooms alone, its calls (a few before each bell: under the same load). */
  const alone: Call[][] = [];
  const quietly = async (times: number) => {
    for (let k = 0; k < times; k++) {
      const calls: Call[] = [];
      await press('answer after', 1000 + ++bells, roomsOfTeacher(1), 1, calls);
      alone.push(calls);
    }
  };
  const all: Record<string, { presses: number[]; polls: number[]; ms: number[]; localMs: number[] }> = {};
  const traces: Record<string, Call[][]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const shift = round % VARIANTS.length;
    for (const variant of [...VARIANTS.slice(shift), ...VARIANTS.slice(0, shift)]) {
      await quietly(3);
      const traced: Call[][] = [];
      const figures = await bell(variant, traced);
      traces[variant] = [...(traces[variant] ?? []), ...traced];
      const into = all[variant] ?? { presses: [], polls: [], ms: [], localMs: [] };
      all[variant] = into;
      into.presses.push(...figures.presses);
      into.polls.push(...figures.polls);
      into.ms.push(figures.ms);
      into.localMs.push(figures.localMs);
      console.log(
        `round ${round + 1} ${variant.padEnd(16)} load ${loadavg()[0]?.toFixed(1)} bell ${figures.ms.toFixed(0).padStart(5)} ms, Local's CPU ${figures.localMs.toFixed(0)} ms; presses p50 ${percentile(figures.presses, 50).toFixed(1)} p99 ${percentile(figures.presses, 99).toFixed(1)} ms; polls ${figures.polls.length} p50 ${percentile(figures.polls, 50).toFixed(1)} p99 ${percentile(figures.polls, 99).toFixed(1)} ms`,
      );
    }
  }
  console.log(
    `\n${BUS_PRESSES} bus presses (${RIDERS_A_PRESS} riders each) and ${WALKER_PRESSES} walkers' presses (${WALKERS_A_PRESS} each) by ${TEACHERS} teachers, ${POLLS} polls a second beside; ${ROUNDS} bells a variant (ms; bell and Local's CPU: the median bell's, presses and polls: all bells together)`,
  );
  console.log(
    `${'variant'.padEnd(18)}${['bell p50', 'Local CPU', 'press p50', 'p99', 'polls', 'poll p50', 'p99']
      .map((h) => h.padStart(11))
      .join('')}`,
  );
  for (const [variant, figures] of Object.entries(all))
    console.log(
      `${variant.padEnd(18)}${[
        percentile(figures.ms, 50).toFixed(0),
        percentile(figures.localMs, 50).toFixed(0),
        percentile(figures.presses, 50).toFixed(1),
        percentile(figures.presses, 99).toFixed(1),
        String(figures.polls.length),
        percentile(figures.polls, 50).toFixed(1),
        percentile(figures.polls, 99).toFixed(1),
      ]
        .map((cell) => cell.padStart(11))
        .join('')}`,
    );
  // The trace: a bus press's calls, in order: their median and 90th percentile over the bells' bus presses
  // (teachers of two classrooms), against the same call's median alone.
  const timesOf = (runs: Call[][], i: number) => runs.map((calls) => calls[i]?.ms ?? Number.NaN);
  for (const variant of ['answer after', 'answer in claim'] as const) {
    const runs = traces[variant] ?? [];
    console.log(
      `\nA bus press in the bell (${variant}; the ${runs.length} bus presses of teachers of two classrooms, ${ROUNDS} bells)`,
    );
    console.log(
      `${'call'.padEnd(44)}${['items', 'p50', 'p90', 'alone', 'wait p50', 'wait p90'].map((h) => h.padStart(9)).join('')}`,
    );
    for (const [i, call] of (runs[0] ?? []).entries()) {
      const [p50, p90] = [percentile(timesOf(runs, i), 50), percentile(timesOf(runs, i), 90)];
      const quiet = alone[0]?.[i]?.name === call.name ? percentile(timesOf(alone, i), 50) : Number.NaN;
      console.log(
        `${call.name.padEnd(44)}${[String(call.items), p50, p90, quiet, p50 - quiet, p90 - quiet]
          .map((cell) => (typeof cell === 'string' ? cell : cell.toFixed(1)).padStart(9))
          .join('')}`,
      );
    }
  }
  await local.stop();
};

runScript(main);
