import { meter } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { openLive } from '../support/live';
import { signedIn, startTestServer } from '../support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  process.env.CURBSIDE_METER = '1';
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  delete process.env.CURBSIDE_METER;
});

describe('metering and event timestamps (the benchmark relies on them)', () => {
  it('stamps sentAt on live events and meters each invocation under its handler', async () => {
    const front = await signedIn(server.url, 'front_demo');
    const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
    const screen = await openLive(server.url, { cookie: front.cookie });
    meter.reset();

    const before = Date.now();
    const added = await front.post('/api/queue', { sessionId, vehicleNumber: '101', vehicleType: 'car' });
    expect(added.status).toBe(201);
    const queued = await screen.next('VEHICLE_QUEUED');
    expect(queued.data).toMatchObject({ entry: { id: added.body.id } });
    expect((queued as { sentAt?: number }).sentAt).toBeGreaterThanOrEqual(before);
    expect((queued as { sentAt?: number }).sentAt).toBeLessThanOrEqual(Date.now());

    const counters = meter.snapshot()['http/addToQueue'] ?? {};
    expect(counters['lambda.invocations']).toBe(1);
    expect(counters['lambda.billedMs']).toBeGreaterThanOrEqual(1);
    // One transaction: the conditional put of the entry (1 write unit for a small entry, and 1 for
    // its place in the waiting line) with its record's event, billed as a transaction (5); the
    // record's share of it (3) is counted apart, so the queue's own units stay 2; and the event's
    // number in the session's sequence (1).
    expect(counters['ddb.TransactWriteItems.calls']).toBe(1);
    expect(counters['ddb.TransactWriteItems.units']).toBe(5);
    expect(counters['ddb.recordWriteUnits']).toBe(3);
    expect(counters['ddb.sequenceWriteUnits']).toBe(1);
    expect(counters['ddb.writeUnits']).toBe(6);
    expect(
      (counters['ddb.writeUnits'] ?? 0) -
        (counters['ddb.recordWriteUnits'] ?? 0) -
        (counters['ddb.sequenceWriteUnits'] ?? 0),
    ).toBe(2);
    expect(counters['ddb.readUnits']).toBeGreaterThan(0);
    expect(counters['live.published.school#1#staff']).toBe(1);
    expect(counters['live.messages']).toBe(1);
    expect(counters['live.billedMessages']).toBe(1);

    // A transaction (completion: delete the entry, put the completed visit, the child's picked-up
    // mark and the record's event) is billed from its items, twice, plus once for each index an
    // item is in (the waiting line, the completed list, the student's pickups): 6 for the visit,
    // 3 for car 101's one child's mark (issue 54: in the completion's transaction, where a
    // BatchWriteItem after it billed 2), 2 for the car's marker of its ended visits (h54zb: what
    // queueing it again reads by key), and the record's event apart.
    const done = await front.put(`/api/queue/${added.body.id}/status`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(done.status).toBe(200);
    const completion = meter.snapshot()['http/setQueueStatus'] ?? {};
    expect(
      (completion['ddb.TransactWriteItems.units'] ?? 0) - (completion['ddb.recordWriteUnits'] ?? 0),
    ).toBe(6 + 3 + 2);
    expect(completion['ddb.BatchWriteItem.calls']).toBeUndefined();
    expect(completion['ddb.recordWriteUnits']).toBe(2);
    expect(completion['ddb.estimatedWriteUnits']).toBeUndefined();
    await screen.close();
  });
});
