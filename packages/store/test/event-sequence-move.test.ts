import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db';
import { eventSequence } from '../src/event-sequence';
import { keyedReads } from '../src/keyed-read';
import { pickupSessions } from '../src/pickup-session';
import { db, rec, testConnectionsDb } from './fixtures/db';

const live = testConnectionsDb();
const sequenceKey = (sessionId: number) => ({ pk: `SESSION#${sessionId}`, sk: 'EVENT_SEQ' });

/** The data table's handle, counting the calls made on it. */
const counted = () => {
  const sent: string[] = [];
  const data: Db = {
    table: db.table,
    doc: {
      send: (command: { constructor: { name: string } }) => {
        sent.push(command.constructor.name);
        return db.doc.send(command as never);
      },
    } as unknown as Db['doc'],
  };
  return { data, sent };
};

/**
 * A session's event numbers moved from the data table to the live-connection
 * table (ADR 0027 "(h54zi)"): a session running when the move is deployed
 * goes on from the number its screens last saw, never from 1 again; a session
 * begun since has its item from its creation and takes each number in one write.
 */
describe("a session's event number, moved to the live table", () => {
  it('goes on from the number kept on the data table for a session running at the deploy, under concurrent first events', async () => {
    const sessionId = 93_001;
    // As the code before the move left it: number 41, and the pickups' sample.
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...sequenceKey(sessionId),
          value: 41,
          p0: 'cmih0k5s0.k03',
          p1: 'bmih0k4tg.k02',
          u0: 'mih0k5s0.k03',
        },
      }),
    );
    const { data, sent } = counted();
    const numbers = await Promise.all(
      Array.from({ length: 12 }, () => eventSequence.next({ live, data }, sessionId)),
    );
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => 42 + i));
    // The sample came along: the bus's pickup is there, the one Undo took back is not.
    const pickups = await keyedReads.run(db, eventSequence.keyedLatestPickups(sessionId, live.table));
    expect(pickups.map((p) => p.vehicleType)).toEqual(['bus']);
    // Read once (at most once per concurrent first event), never written: the number lives on the live table now.
    expect(sent.every((name) => name === 'GetCommand')).toBe(true);
    const { Item: old } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: sequenceKey(sessionId) }),
    );
    expect(old?.value).toBe(41);
    // The next events: one write each on the live table, the data table no more read.
    sent.length = 0;
    expect(await eventSequence.next({ live, data }, sessionId)).toBe(54);
    expect(sent).toEqual([]);
  });

  it('numbers a session begun since from 1, each event one write on the live table', async () => {
    const session = await pickupSessions.create(
      db,
      {
        schoolId: 93_002,
        name: 'Afternoon',
        type: 'afternoon_pickup',
        startTime: new Date().toISOString(),
        endTime: new Date(Date.now() + 3_600_000).toISOString(),
        notes: null,
      },
      rec,
      live,
    );
    const { data, sent } = counted();
    expect(await eventSequence.next({ live, data }, session.id)).toBe(1);
    expect(await eventSequence.next({ live, data }, session.id)).toBe(2);
    expect(sent).toEqual([]);
    const { Item } = await live.doc.send(
      new GetCommand({ TableName: live.table, Key: sequenceKey(session.id) }),
    );
    expect(Item?.value).toBe(2);
    // Kept a week past its last event (the live table's expiry), far beyond any session.
    expect(Number(Item?.ttl) - Date.now() / 1000).toBeGreaterThan(6 * 24 * 3600);
  });

  it('starts a session it finds nowhere (made without its item) at 1', async () => {
    const { data } = counted();
    expect(await eventSequence.next({ live, data }, 93_003)).toBe(1);
    expect(await eventSequence.next({ live, data }, 93_003)).toBe(2);
  });
});
