import { describe, expect, it } from 'vitest';
import { busPositions } from '../src/bus';
import { connections } from '../src/connection';
import { db, testConnectionsDb } from './fixtures/db';

describe('connections', () => {
  const connectionDb = testConnectionsDb();

  it('live in the connection table, never in the data table', async () => {
    await connections.put(connectionDb, {
      connectionId: 'c0',
      channels: ['public'],
      userId: 5,
      connectedAt: 'now',
    });
    expect(await connections.get(connectionDb, 'c0')).toMatchObject({ connectionId: 'c0', userId: 5 });
    const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const { Items = [] } = await db.doc.send(new ScanCommand({ TableName: db.table }));
    expect(Items.filter((item) => /^(CONN|CHANNEL)#/.test(String(item.pk)))).toEqual([]);
    await connections.remove(connectionDb, 'c0');
  });

  it("lists a user's connections with their sign-in session, and forgets them when removed", async () => {
    await connections.put(connectionDb, {
      connectionId: 'u1',
      channels: ['public'],
      userId: 77,
      sessionId: 'session-a',
      connectedAt: 'now',
    });
    await connections.put(connectionDb, {
      connectionId: 'u2',
      channels: ['public'],
      userId: 77,
      connectedAt: 'now',
    });
    expect(
      (await connections.ofUser(connectionDb, 77)).sort((a, b) =>
        a.connectionId.localeCompare(b.connectionId),
      ),
    ).toEqual([
      { connectionId: 'u1', sessionId: 'session-a' },
      { connectionId: 'u2', sessionId: null },
    ]);
    await connections.remove(connectionDb, 'u1');
    await connections.remove(connectionDb, 'u2');
    expect(await connections.ofUser(connectionDb, 77)).toEqual([]);
  });

  it('lists a channel by query and forgets a removed connection', async () => {
    await connections.put(connectionDb, {
      connectionId: 'c1',
      channels: ['public', 'school#9#staff'],
      userId: 3,
      connectedAt: 'now',
    });
    await connections.put(connectionDb, {
      connectionId: 'c2',
      channels: ['public'],
      userId: null,
      connectedAt: 'now',
    });
    expect((await connections.inChannel(connectionDb, 'public')).sort()).toEqual(['c1', 'c2']);
    expect(await connections.inChannel(connectionDb, 'school#9#staff')).toEqual(['c1']);
    await connections.remove(connectionDb, 'c1');
    expect(await connections.inChannel(connectionDb, 'public')).toEqual(['c2']);
    expect(await connections.inChannel(connectionDb, 'school#9#staff')).toEqual([]);
    expect(await connections.get(connectionDb, 'c1')).toBeUndefined();
  });

  it('removes a membership left behind without its connection row, given the channel it was found in', async () => {
    await connections.put(connectionDb, {
      connectionId: 'c3',
      channels: ['school#8#staff'],
      userId: 4,
      connectedAt: 'now',
    });
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await connectionDb.doc.send(
      new DeleteCommand({ TableName: connectionDb.table, Key: { pk: 'CONN#c3', sk: 'CONN' } }),
    );
    expect(await connections.inChannel(connectionDb, 'school#8#staff')).toEqual(['c3']);
    await connections.remove(connectionDb, 'c3', ['school#8#staff']);
    expect(await connections.inChannel(connectionDb, 'school#8#staff')).toEqual([]);
  });

  it('keeps a connection found gone within 30 s of connecting (its $connect may still run), and removes it after', async () => {
    const connectedAt = '2026-11-27T15:00:00.000Z';
    await connections.put(connectionDb, {
      connectionId: 'c4',
      channels: ['school#10#staff'],
      userId: 6,
      connectedAt,
    });
    const after = (ms: number) => Date.parse(connectedAt) + ms;
    expect(await connections.removeGone(connectionDb, 'c4', ['school#10#staff'], after(29_999))).toBe(false);
    expect(await connections.inChannel(connectionDb, 'school#10#staff')).toEqual(['c4']);
    expect(await connections.ofUser(connectionDb, 6)).toEqual([{ connectionId: 'c4', sessionId: null }]);
    expect(await connections.removeGone(connectionDb, 'c4', ['school#10#staff'], after(30_000))).toBe(true);
    expect(await connections.inChannel(connectionDb, 'school#10#staff')).toEqual([]);
    expect(await connections.ofUser(connectionDb, 6)).toEqual([]);
    expect(await connections.get(connectionDb, 'c4')).toBeUndefined();
  });

  it('swaps a connection’s channels with their member rows, and drops a change older than one made', async () => {
    await connections.put(connectionDb, {
      connectionId: 'c5',
      channels: ['school#11#staff', 'school#11#line'],
      userId: 7,
      connectedAt: new Date().toISOString(),
    });
    const to = (room: number) => (before: readonly string[]) => [
      ...before.filter((channel) => channel === 'school#11#staff'),
      `school#11#classroom#${room}`,
    ];
    expect(await connections.rechannel(connectionDb, 'c5', to(1), 2)).toEqual({
      channels: ['school#11#staff', 'school#11#classroom#1'],
      stale: false,
    });
    expect(await connections.inChannel(connectionDb, 'school#11#line')).toEqual([]);
    expect(await connections.inChannel(connectionDb, 'school#11#classroom#1')).toEqual(['c5']);
    // The screen's first message, handled after its second: nothing changes.
    expect(await connections.rechannel(connectionDb, 'c5', to(2), 1)).toEqual({
      channels: ['school#11#staff', 'school#11#classroom#1'],
      stale: true,
    });
    expect(await connections.inChannel(connectionDb, 'school#11#classroom#2')).toEqual([]);
    expect((await connections.rechannel(connectionDb, 'c5', to(2), 3))?.channels).toEqual([
      'school#11#staff',
      'school#11#classroom#2',
    ]);
    expect(await connections.inChannel(connectionDb, 'school#11#classroom#1')).toEqual([]);
    expect(await connections.inChannel(connectionDb, 'school#11#classroom#2')).toEqual(['c5']);
    // Two changes at once: each lands whole, one after the other; no member of the loser is left.
    await Promise.all([
      connections.rechannel(connectionDb, 'c5', to(3)),
      connections.rechannel(connectionDb, 'c5', to(4)),
    ]);
    const now = (await connections.get(connectionDb, 'c5'))?.channels ?? [];
    const members = [3, 4].filter((room) => now.includes(`school#11#classroom#${room}`));
    expect(members).toHaveLength(1);
    for (const room of [2, 3, 4]) {
      expect(await connections.inChannel(connectionDb, `school#11#classroom#${room}`)).toEqual(
        members.includes(room) ? ['c5'] : [],
      );
    }
    expect(await connections.rechannel(connectionDb, 'gone', to(1), 1)).toBeUndefined();
  });

  it("keeps a parent's children on its school rows, and forgets the ones unlinked from every open page", async () => {
    const page = (connectionId: string) => ({
      connectionId,
      channels: ['public', 'parent#88'],
      userId: 88,
      connectedAt: new Date().toISOString(),
      schools: [21, 22],
      children: [
        { schoolId: 21, studentId: 1 },
        { schoolId: 21, studentId: 2 },
        { schoolId: 22, studentId: 3 },
      ],
    });
    await connections.put(connectionDb, page('p1'));
    await connections.put(connectionDb, page('p2'));
    const heard = async (schoolId: number) =>
      (await connections.ofSchool(connectionDb, schoolId))
        .map(({ connectionId, studentIds }) => ({ connectionId, studentIds: [...studentIds].sort() }))
        .sort((a, b) => a.connectionId.localeCompare(b.connectionId));
    expect(await heard(21)).toEqual([
      { connectionId: 'p1', studentIds: [1, 2] },
      { connectionId: 'p2', studentIds: [1, 2] },
    ]);
    await connections.forgetChildren(connectionDb, 88, 21, [2]);
    expect(await heard(21)).toEqual([
      { connectionId: 'p1', studentIds: [1] },
      { connectionId: 'p2', studentIds: [1] },
    ]);
    // The last child of a school: the row stays (the page's channels), hearing of no child there.
    await connections.forgetChildren(connectionDb, 88, 21, [1], ['p1']);
    expect(await heard(21)).toEqual([
      { connectionId: 'p1', studentIds: [] },
      { connectionId: 'p2', studentIds: [1] },
    ]);
    expect(await heard(22)).toEqual([
      { connectionId: 'p1', studentIds: [3] },
      { connectionId: 'p2', studentIds: [3] },
    ]);
    // A page closed meanwhile is skipped, its row not written again.
    await connections.remove(connectionDb, 'p2');
    await connections.forgetChildren(connectionDb, 88, 22, [3], ['p1', 'p2']);
    expect(await heard(22)).toEqual([{ connectionId: 'p1', studentIds: [] }]);
    await connections.remove(connectionDb, 'p1');
    expect(await heard(21)).toEqual([]);
  });

  it("gives a change's fan-out the staff pages, displays and only its children's parents' pages (h54zf)", async () => {
    const schoolId = 31;
    const at = new Date().toISOString();
    await connections.put(connectionDb, {
      connectionId: 'staff-a',
      channels: [`school#${schoolId}#staff`, `school#${schoolId}#line`],
      userId: 1,
      connectedAt: at,
      schools: [schoolId],
      children: [],
    });
    await connections.put(connectionDb, {
      connectionId: 'display-a',
      channels: [`school#${schoolId}#display`],
      userId: null,
      connectedAt: at,
      schools: [schoolId],
    });
    // Three parents' pages: children 1 and 2 (one family), 3, and 4.
    const page = (connectionId: string, userId: number, studentIds: number[]) =>
      connections.put(connectionDb, {
        connectionId,
        channels: ['public', `parent#${userId}`],
        userId,
        connectedAt: at,
        schools: [schoolId],
        children: studentIds.map((studentId) => ({ schoolId, studentId })),
      });
    await page('parent-12', 61, [1, 2]);
    await page('parent-3', 62, [3]);
    await page('parent-4', 63, [4]);
    const heard = async (children?: number[]) =>
      (await connections.ofSchool(connectionDb, schoolId, children ? { children } : {}))
        .map((connection) => connection.connectionId)
        .sort();
    expect(await heard()).toEqual(['display-a', 'parent-12', 'parent-3', 'parent-4', 'staff-a']);
    expect(await heard([2])).toEqual(['display-a', 'parent-12', 'staff-a']);
    expect(await heard([3, 4, 3])).toEqual(['display-a', 'parent-3', 'parent-4', 'staff-a']);
    // A change that tells no parent anything (an empty batch, an alert): the staff's and displays' rows.
    expect(await heard([])).toEqual(['display-a', 'staff-a']);
    // More children than a filter names: every row.
    expect(await heard(Array.from({ length: 60 }, (_, index) => 100 + index))).toHaveLength(5);
    // A child unlinked from a page: it hears of nobody there (a row with no child left reads as one
    // that hears of no child, as a staff page's does: sent along, matched to nobody).
    await connections.forgetChildren(connectionDb, 62, schoolId, [3]);
    const after = await connections.ofSchool(connectionDb, schoolId, { children: [3] });
    expect(after.filter((connection) => connection.studentIds.includes(3))).toEqual([]);
    expect(after.map((connection) => connection.connectionId).sort()).toEqual([
      'display-a',
      'parent-3',
      'staff-a',
    ]);
  });
});

describe('the bus fan-out gate', () => {
  const second = 1_000;
  it('lets one caller claim each second’s fan-out, and one watch its late positions', async () => {
    const schoolId = 9_101;
    const t = 1_800_000_000_000;
    expect(await busPositions.claimFanOut(db, schoolId, second, t)).toEqual({ claimed: true, previous: 0 });
    // A position kept after that claim: nobody watches the second yet.
    expect(await busPositions.claimFanOut(db, schoolId, second, t + 300)).toEqual({
      claimed: false,
      covered: false,
    });
    const slot = t / second;
    expect(await busPositions.claimWatch(db, schoolId, slot)).toBe(true);
    expect(await busPositions.claimWatch(db, schoolId, slot)).toBe(false);
    // Now a late position of that second is covered by the watch.
    expect(await busPositions.claimFanOut(db, schoolId, second, t + 600)).toEqual({
      claimed: false,
      covered: true,
    });
    // The next second's claim answers the previous fan-out's time; the watch of a second
    // already fanned out after is nobody's to take.
    expect(await busPositions.claimFanOut(db, schoolId, second, t + 1_050)).toEqual({
      claimed: true,
      previous: t,
    });
    expect(await busPositions.claimWatch(db, schoolId, slot)).toBe(false);
    // A caller whose clock is behind finds its second covered by the later claim.
    expect(await busPositions.claimFanOut(db, schoolId, second, t + 900)).toEqual({
      claimed: false,
      covered: true,
    });
  });
});
