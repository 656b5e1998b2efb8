import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { eventSequence, PICKUPS_KEPT } from '../src/event-sequence';
import { keyedReads } from '../src/keyed-read';
import { itemSize } from '../src/meter';
import { db, testConnectionsDb } from './fixtures/db';

const live = testConnectionsDb();
/** The number's place: the live-connection table (ADR 0027 "(h54zi)"), the data table the one it was in before. */
const tables = { live, data: db };

/**
 * The session's latest pickups for the parents' wait estimate (issue 54), kept
 * by the event sequence's own UpdateItem and read by key: the newest
 * `PICKUPS_KEPT`, in order, less those Undo took back; the numbering unchanged.
 */
describe("a session's latest pickups, kept beside its event numbers", () => {
  const at = (second: number) => new Date(Date.UTC(2026, 10, 27, 15, 0, second)).toISOString();
  const pickup = (n: number, vehicleType: 'car' | 'bus' = 'car') => ({
    vehicleType,
    exitTime: at(n),
    id: `9-${vehicleType}-${n}-1764255600000-k${String(n % 100).padStart(2, '0')}`,
  });
  const latest = (sessionId: number) =>
    keyedReads.run(db, eventSequence.keyedLatestPickups(sessionId, live.table));

  it('keeps the newest pickups in order, one event at a time or a batch at once, and numbers every event', async () => {
    const sessionId = 91_001;
    expect(await latest(sessionId)).toEqual([]);
    const numbers = [await eventSequence.next(tables, sessionId)];
    for (let n = 1; n <= 20; n++)
      numbers.push(await eventSequence.next(tables, sessionId, { pickedUp: [pickup(n)] }));
    // A batch of 25 completed at once (one event), a bus among them, given in any order.
    const batch = Array.from({ length: 25 }, (_, i) => pickup(21 + i, i === 3 ? 'bus' : 'car')).reverse();
    numbers.push(await eventSequence.next(tables, sessionId, { pickedUp: batch }));
    numbers.push(await eventSequence.next(tables, sessionId));
    expect(numbers).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    const kept = await latest(sessionId);
    expect(kept).toHaveLength(PICKUPS_KEPT);
    expect(kept.map((p) => p.exitTime)).toEqual(Array.from({ length: PICKUPS_KEPT }, (_, i) => at(45 - i)));
    expect(kept.filter((p) => p.vehicleType === 'bus').map((p) => p.exitTime)).toEqual([at(24)]);
  });

  it('stays under 1 KB full (every event still 1 write unit), in a session of a long id', async () => {
    const sessionId = 987_654_321;
    for (let n = 0; n < 12; n++) {
      const pickedUp = Array.from({ length: 4 }, (_, i) => pickup(n * 4 + i, i % 2 ? 'bus' : 'car'));
      await eventSequence.next(tables, sessionId, { pickedUp });
      await eventSequence.next(tables, sessionId, { undone: pickedUp[0] as (typeof pickedUp)[0] });
    }
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: live.table, Key: { pk: `SESSION#${sessionId}`, sk: 'EVENT_SEQ' } }),
    );
    expect(Item?.p31).toMatch(/^[cb]/);
    expect(Item?.u7).not.toBe('-');
    expect(itemSize(Item as Record<string, unknown>)).toBeLessThan(1024);
  });

  it('leaves out a pickup Undo took back, and keeps a later pickup of the same car', async () => {
    const sessionId = 91_002;
    for (let n = 1; n <= 3; n++) await eventSequence.next(tables, sessionId, { pickedUp: [pickup(n)] });
    await eventSequence.next(tables, sessionId, { undone: pickup(2) });
    expect((await latest(sessionId)).map((p) => p.exitTime)).toEqual([at(3), at(1)]);
    await eventSequence.next(tables, sessionId, { pickedUp: [{ ...pickup(2), exitTime: at(9) }] });
    expect((await latest(sessionId)).map((p) => p.exitTime)).toEqual([at(9), at(3), at(1)]);
  });
});
