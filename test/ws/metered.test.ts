import { meter } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { connectLive } from '../support/live';
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
    const screen = await connectLive(server.url, front.cookie);
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
    // One conditional put of the entry (1 write unit for a small entry, and 1 for its place in the
    // waiting line), and the event's number in the session's sequence (1).
    expect(counters['ddb.PutItem.calls']).toBe(1);
    expect(counters['ddb.PutItem.units']).toBe(2);
    expect(counters['ddb.sequenceWriteUnits']).toBe(1);
    expect(counters['ddb.writeUnits']).toBe(3);
    expect(counters['ddb.readUnits']).toBeGreaterThan(0);
    expect(counters['live.published.school#1#staff']).toBe(1);
    expect(counters['live.messages']).toBe(1);
    expect(counters['live.billedMessages']).toBe(1);

    // A transaction (completion: delete the entry, put the completed visit) is billed from its items,
    // twice, plus once for each index an item is in (the waiting line, the completed list).
    const done = await front.put(`/api/queue/${added.body.id}/status`, { status: 'completed' });
    expect(done.status).toBe(200);
    const completion = meter.snapshot()['http/setQueueStatus'] ?? {};
    expect(completion['ddb.TransactWriteItems.units']).toBe(6);
    expect(completion['ddb.estimatedWriteUnits']).toBeUndefined();
    await screen.close();
  });
});
