import { randomUUID } from 'node:crypto';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { meter, students, vehicles } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFreshSession } from '../support/car-line';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * What adding a car costs in DynamoDB write units, for the benchmark's budget
 * (test/bench/budgets.ts: at most 2 for the queue, the entry and its place in
 * the waiting line). The car is the benchmark school's largest family
 * (test/bench/school.ts: 1 to 4 children a car) with the longest names and
 * vehicle details its seed gives.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let front: Client;
let sessionId: number;
beforeAll(async () => {
  process.env.CURBSIDE_METER = '1';
  server = await startTestServer();
  front = await signedIn(server.url, 'front_demo');
  sessionId = await startFreshSession(front);
});
afterAll(async () => {
  await server?.close();
  delete process.env.CURBSIDE_METER;
});

const familyCar = async (number: string, children: number) => {
  const kids = [];
  for (const firstName of ['Lucas', 'Sofia', 'Chloe', 'Mason'].slice(0, children)) {
    kids.push(
      await students.create(server.db, {
        schoolId: 1,
        firstName,
        lastName: 'Martinez',
        grade: 'K',
        classroomId: 1,
      }),
    );
  }
  await vehicles.create(server.db, {
    schoolId: 1,
    number,
    type: 'car',
    active: true,
    parentName: 'Morgan Martinez',
    parentPhone: `(555) 999-${number}`,
    alternateContactName: 'Avery Martinez',
    alternateContactPhone: `(555) 020-${number}`,
    make: 'Chevrolet',
    model: 'Explorer',
    color: 'Silver',
    licensePlate: `CRB-${number}`,
    notes: null,
    studentIds: kids.map((kid) => kid.id),
  });
};

/** The add as a tablet sends it (with its Idempotency-Key), answered as sent: status, replay header and body bytes. */
const addCar = async (vehicleNumber: string, key: string) => {
  const response = await fetch(new URL('/api/queue', server.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: front.cookie ?? '',
      'idempotency-key': key,
    },
    body: JSON.stringify({ sessionId, vehicleNumber, vehicleType: 'car' }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    text: await response.text(),
  };
};

describe('the write units of adding a car', () => {
  it.each([
    ['four children', 4],
    ['three children', 3],
    ['two children', 2],
    ['one child', 1],
  ])(
    'with %s are 2 for the queue (entry and waiting line) and 2 for its Idempotency-Key, and a retry gets the same bytes',
    async (_label, children) => {
      const number = `179${children}`;
      await familyCar(number, children);
      const key = randomUUID();
      meter.reset();
      const first = await addCar(number, key);
      expect(first.status).toBe(201);
      const entry = JSON.parse(first.text);
      expect(entry.students).toHaveLength(children);

      const counters = meter.snapshot()['http/addToQueue'] ?? {};
      const count = (name: string) => counters[name] ?? 0;
      expect(count('lambda.invocations')).toBe(1);
      expect(count('ddb.estimatedWriteUnits')).toBe(0);
      const queueUnits =
        count('ddb.writeUnits') -
        count('ddb.recordWriteUnits') -
        count('ddb.idempotencyWriteUnits') -
        count('ddb.sequenceWriteUnits');
      // The entry (1 KB at most on the table) and its place in the waiting line (gsi1).
      expect(queueUnits).toBe(2);
      // Its event in the same transaction (2) and the transaction's share of the entry (1).
      expect(count('ddb.recordWriteUnits')).toBe(3);
      // The key: its claim in the change's transaction, with the answer in it (2: a transactional write
      // under 1 KB, the body compressed); no update keeps the answer after (ADR 0027).
      expect(count('ddb.idempotencyWriteUnits')).toBe(2);
      expect(count('ddb.UpdateItem.units') - count('ddb.sequenceWriteUnits')).toBe(0);

      // The entry as stored, written again on its own: DynamoDB Local bills it 1 unit (it is under
      // 1 KB as DynamoDB sizes it), and it is in the waiting line's index (all attributes projected:
      // 1 unit more there; Local does not report index units).
      const Key = { pk: { S: `QUEUE#${sessionId}` }, sk: { S: `ENTRY#car#${number}` } };
      const { Item } = await server.db.doc.send(
        new GetItemCommand({ TableName: server.db.table, Key, ConsistentRead: true }),
      );
      expect(Item?.gsi1pk).toBeDefined();
      const rewrite = await server.db.doc.send(
        new PutItemCommand({ TableName: server.db.table, Item: Item, ReturnConsumedCapacity: 'TOTAL' }),
      );
      expect(rewrite.ConsumedCapacity?.CapacityUnits).toBe(1);

      // A retry (the answer was lost on the way) gets the first answer, byte for byte.
      const again = await addCar(number, key);
      expect(again.status).toBe(201);
      expect(again.replayed).toBe('true');
      expect(again.text).toBe(first.text);
    },
  );
});
