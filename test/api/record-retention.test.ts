import { type AttributeValue, QueryCommand } from '@aws-sdk/client-dynamodb';
import { localDynamoClient } from '@curbside/local';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { signedIn, startTestServer } from '../support/server';

/**
 * The record's retention (issue 55): the school's `recordRetentionDays` is
 * enforced by TTL (every event, mark and kept summary expires that many days
 * after it happened) and by reads (TTL deletes late, so an event past its
 * retention is never returned), checked with the server's clock faked past it.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const RETENTION_DAYS = 30;

let server: Awaited<ReturnType<typeof startTestServer>>;
let sessionId: number;
let childId: number;

/** The raw items of a partition (their `ttl` included). */
const partition = async (pk: string) => {
  const client = localDynamoClient(inject('dynamoEndpoint'));
  try {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: server.db.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: pk } },
      }),
    );
    return Items as Array<Record<string, AttributeValue>>;
  } finally {
    client.destroy();
  }
};

/** What the office reads of the session and of the child's pickups, signed in at the (faked) time. */
const whatStaffRead = async () => {
  const admin = await signedIn(server.url, 'admin_demo');
  const events = (await admin.get(`/api/sessions/${sessionId}/events`)).body.items as unknown[];
  const report = (await admin.get(`/api/sessions/${sessionId}/report`)).body;
  const listed = (await admin.get('/api/sessions')).body.items.find(
    (item: { id: number }) => item.id === sessionId,
  );
  const pickups = (await admin.get(`/api/students/${childId}/pickups`)).body as Array<{ sessionId: number }>;
  return {
    events: events.length,
    reportPickups: report.pickups.length,
    listedPickedUp: listed.summary.studentsPickedUp,
    childPickups: pickups.filter((pickup) => pickup.sessionId === sessionId).length,
  };
};

beforeAll(async () => {
  server = await startTestServer();
  const [admin, front, teacher] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'teacher_demo'),
  ]);
  const settings = (await admin.get('/api/schools/1/settings')).body;
  expect(
    (await admin.put('/api/schools/1/settings', { ...settings, recordRetentionDays: RETENTION_DAYS })).status,
  ).toBe(200);
  const roster = (await teacher.get('/api/teacher/students')).body as Array<{
    id: number;
    vehicle: { number: string } | null;
  }>;
  const child = roster.find((student) => student.vehicle !== null) as (typeof roster)[number];
  childId = child.id;
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  const entry = await front.post('/api/queue', {
    sessionId,
    vehicleNumber: child.vehicle?.number,
    vehicleType: 'car',
  });
  expect(entry.status).toBe(201);
  expect((await teacher.put(`/api/teacher/students/${childId}/release`)).status).toBe(200);
  const done = await front.request('DELETE', `/api/queue/${entry.body.id}`, {
    reason: 'picked_up',
    confirmUnreleased: true,
  });
  expect(done.status).toBe(200);
  expect((await admin.put(`/api/sessions/${sessionId}/end`)).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the record's retention", () => {
  it("gives every event and the kept summary a TTL of the school's retention days", async () => {
    const before = await whatStaffRead();
    expect(before).toEqual({
      events: expect.any(Number),
      reportPickups: 1,
      listedPickedUp: 1,
      childPickups: 1,
    });
    expect(before.events).toBeGreaterThanOrEqual(4);
    const events = await partition(`EVENTS#${sessionId}`);
    expect(events.length).toBe(before.events);
    for (const event of events) {
      const at = Date.parse(event.at?.S as string);
      expect(Number(event.ttl?.N)).toBe(Math.ceil(at / 1000) + RETENTION_DAYS * 86_400);
    }
    const lastEventTtl = Math.max(...events.map((event) => Number(event.ttl?.N)));
    const [summary] = (await partition(`SESSION#${sessionId}`)).filter(
      (item) => item.sk?.S === 'RECORD_SUMMARY',
    );
    expect(Number(summary?.ttl?.N)).toBeGreaterThan(Date.now() / 1000);
    expect(Number(summary?.ttl?.N)).toBeLessThanOrEqual(lastEventTtl + 5 * 3600);
  });

  it('keeps everything a day before the retention ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + (RETENTION_DAYS - 1) * DAY_MS);
    expect(await whatStaffRead()).toMatchObject({ reportPickups: 1, listedPickedUp: 1, childPickups: 1 });
  });

  it('returns nothing past it, though TTL has not deleted the items yet', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + (RETENTION_DAYS + 1) * DAY_MS);
    // The items are still in the table (DynamoDB Local, like TTL, deletes late)...
    expect((await partition(`EVENTS#${sessionId}`)).length).toBeGreaterThan(0);
    // ...and no read returns them: the events, the report, the session list's summary, the child's history.
    expect(await whatStaffRead()).toEqual({
      events: 0,
      reportPickups: 0,
      listedPickedUp: 0,
      childPickups: 0,
    });
  });
});
