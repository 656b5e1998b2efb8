import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDb } from '../src/db';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, idempotency } from '../src/idempotency';
import { meter } from '../src/meter';
import { meterOnForEachTest } from './meter-on';

const db = createDb({
  table: process.env.TABLE_NAME as string,
  endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
  meter: true,
});
const FINGERPRINT = 'f'.repeat(43);
const HEADERS = { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' };

/** The answer to adding a car with four children (the benchmark's largest family), as the API sends it. */
const carAnswer = (note = '') =>
  JSON.stringify({
    sessionId: 1204,
    schoolId: 31,
    vehicleId: 40_731,
    vehicleNumber: '1004',
    vehicleType: 'car',
    entryTime: '2026-11-27T15:04:05.123Z',
    queueTime: '2026-11-27T15:04:05.123Z',
    vehicle: {
      notes: note || null,
      color: 'Silver',
      active: true,
      alternateContactPhone: '(555) 020-1004',
      type: 'car',
      parentPhone: '(555) 104-1004',
      number: '1004',
      parentName: 'Morgan Martinez',
      licensePlate: 'CRB-1004',
      alternateContactName: 'Avery Martinez',
      model: 'Explorer',
      id: 40_731,
      make: 'Chevrolet',
    },
    students: ['Lucas', 'Sofia', 'Chloe', 'Mason'].map((firstName, i) => ({
      id: 52_310 + i,
      firstName,
      lastName: 'Martinez',
      grade: 'K',
      classroomId: 40_012 + i,
    })),
    id: '1204-car-1004-1795791845123-x7q',
    status: 'waiting',
    batchId: null,
    batchNumber: null,
    position: 118,
    exitTime: null,
    version: 1,
  });

const caller = () => `USER#${randomUUID()}`;

describe('idempotency records', () => {
  meterOnForEachTest();

  it("keeps a four-child car's answer in one write unit, as DynamoDB Local bills it, and gives back the same bytes", async () => {
    const who = caller();
    const key = randomUUID();
    const body = carAnswer();
    expect(Buffer.byteLength(body)).toBeGreaterThan(900);
    await meter.run('add', async () => {
      expect(await idempotency.claim(db, who, key, FINGERPRINT)).toEqual({ claimed: true });
      await idempotency.complete(db, who, key, { statusCode: 201, headers: HEADERS, body });
    });
    const counters = meter.snapshot().add ?? {};
    // What DynamoDB Local reported: the claim's put and the answer's update, 1 unit each.
    expect(counters['ddb.PutItem.units']).toBe(1);
    expect(counters['ddb.UpdateItem.units']).toBe(1);
    // And what the store counts for the benchmark agrees with it.
    expect(counters['ddb.idempotencyWriteUnits']).toBe(2);

    const record = await idempotency.get(db, who, key);
    expect(record).toEqual({
      state: 'completed',
      fingerprint: FINGERPRINT,
      answer: { statusCode: 201, headers: HEADERS, body },
    });
  });

  it('gives back a body with any characters exactly as it was sent', async () => {
    const who = caller();
    const key = randomUUID();
    const body = carAnswer('José’s mom — 母 🚗 "quoted" \\ back\nslash');
    await idempotency.claim(db, who, key, FINGERPRINT);
    await idempotency.complete(db, who, key, { statusCode: 201, headers: HEADERS, body });
    const record = await idempotency.get(db, who, key);
    expect(record?.state === 'completed' && Buffer.from(record.answer.body)).toEqual(Buffer.from(body));

    const empty = randomUUID();
    await idempotency.claim(db, who, empty, FINGERPRINT);
    await idempotency.complete(db, who, empty, { statusCode: 204, headers: {}, body: '' });
    expect(await idempotency.get(db, who, empty)).toMatchObject({ answer: { statusCode: 204, body: '' } });
  });

  it('counts an answer that takes two units as two (what it counts is what DynamoDB Local bills)', async () => {
    const who = caller();
    const key = randomUUID();
    // Random bytes do not compress: about 1.3 KB stored.
    const body = JSON.stringify({ token: randomBytes(1100).toString('base64') });
    await meter.run('big', async () => {
      await idempotency.claim(db, who, key, FINGERPRINT);
      await idempotency.complete(db, who, key, { statusCode: 200, headers: HEADERS, body });
    });
    const counters = meter.snapshot().big ?? {};
    expect(counters['ddb.UpdateItem.units']).toBe(2);
    expect(counters['ddb.idempotencyWriteUnits']).toBe(1 + 2);
  });

  it('still reads a record kept before the answer was compressed (the body as a string)', async () => {
    const who = caller();
    const key = randomUUID();
    const now = Date.now();
    const body = carAnswer();
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          pk: `IDEMPOTENCY#${who}#${key}`,
          sk: 'IDEMPOTENCY',
          state: 'completed',
          fingerprint: FINGERPRINT,
          leaseUntil: now - 60_000 + IDEMPOTENCY_LEASE_MS,
          expiresAt: now - 60_000 + IDEMPOTENCY_TTL_MS,
          ttl: Math.ceil((now - 60_000 + IDEMPOTENCY_TTL_MS) / 1000),
          statusCode: 201,
          headers: HEADERS,
          body,
        },
      }),
    );
    expect(await idempotency.get(db, who, key)).toEqual({
      state: 'completed',
      fingerprint: FINGERPRINT,
      answer: { statusCode: 201, headers: HEADERS, body },
    });
    // Kept, not claimable again while it lasts.
    expect(await idempotency.claim(db, who, key, FINGERPRINT)).toMatchObject({
      claimed: false,
      record: { state: 'completed', answer: { body } },
    });
  });

  it('keeps an answered key from being claimed again, even once its lease has passed, until it expires', async () => {
    const who = caller();
    const key = randomUUID();
    const then = Date.now() - 60_000;
    await idempotency.claim(db, who, key, FINGERPRINT, then);
    await idempotency.complete(db, who, key, { statusCode: 201, headers: HEADERS, body: carAnswer() });
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: { pk: `IDEMPOTENCY#${who}#${key}`, sk: 'IDEMPOTENCY' } }),
    );
    // The lease is gone with the claim; what a replay needs stays.
    expect(Item?.leaseUntil).toBeUndefined();
    expect(await idempotency.claim(db, who, key, FINGERPRINT)).toMatchObject({
      claimed: false,
      record: { state: 'completed' },
    });
    expect(await idempotency.claim(db, who, key, FINGERPRINT, then + IDEMPOTENCY_TTL_MS + 1)).toEqual({
      claimed: true,
    });
  });
});
