import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, type QueueEntry } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { authSessions } from '../src/auth-session';
import { batches } from '../src/batch';
import { busPositions } from '../src/bus';
import { callerReads } from '../src/caller-reads';
import { connections } from '../src/connection';
import { createDb, type Db } from '../src/db';
import { districts } from '../src/district';
import { pickupSessions } from '../src/pickup-session';
import { queue } from '../src/queue';
import { releases } from '../src/release';
import { schools } from '../src/school';
import { throttle } from '../src/throttle';
import { users } from '../src/user';

/** The record's actor and retention for changes this test makes straight in the store. */
const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };

const db = createDb({
  table: process.env.TABLE_NAME as string,
  endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
});

describe('districts, schools and users', () => {
  it('creates them with increasing numeric ids and lists them by their parent', async () => {
    const district = await districts.create(db, { name: 'North', active: true, sandbox: false });
    const a = await schools.create(db, { name: 'A', districtId: district.id, active: true, sandbox: false });
    const b = await schools.create(db, { name: 'B', districtId: district.id, active: true, sandbox: true });
    expect(b.id).toBe(a.id + 1);
    expect((await schools.listByDistrict(db, district.id)).map((s) => s.name)).toEqual(['A', 'B']);
    expect(await districts.get(db, district.id)).toEqual(district);
    expect((await schools.setSandbox(db, a.id, true))?.sandbox).toBe(true);
    expect(await schools.setSandbox(db, 987654, true)).toBeUndefined();

    const user = await users.create(db, {
      name: 'Kim',
      username: 'Kim.Lee',
      email: null,
      phone: null,
      role: 'teacher',
      active: true,
      schoolId: a.id,
      districtId: district.id,
      passwordHash: 'hash',
    });
    expect(await users.get(db, user.id)).toEqual(user);
    expect((await users.findCredentials(db, 'kim.lee'))?.passwordHash).toBe('hash');
    expect(await users.listBySchool(db, a.id)).toEqual([user]);
    expect(await users.listByDistrict(db, district.id)).toEqual([user]);
  });

  it('never gives one username to two users, even when both are created at once', async () => {
    const make = () =>
      users.create(db, {
        name: 'Sam',
        username: 'same_name',
        email: null,
        phone: null,
        role: 'parent',
        active: true,
        schoolId: null,
        districtId: null,
        passwordHash: 'x',
      });
    const results = await Promise.allSettled([make(), make(), make()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
    }
  });
});

describe('pickup sessions', () => {
  const fields = (schoolId: number, endOffsetMs: number) => ({
    schoolId,
    name: 'Afternoon Pickup',
    type: 'afternoon_pickup' as const,
    startTime: new Date(Date.now() - 60_000).toISOString(),
    endTime: new Date(Date.now() + endOffsetMs).toISOString(),
    notes: null,
  });

  it('holds one active session per school and frees the slot when it ends', async () => {
    const first = await pickupSessions.create(db, fields(501, 3_600_000), rec);
    await expect(pickupSessions.create(db, fields(501, 3_600_000), rec)).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect((await pickupSessions.active(db, 501))?.id).toBe(first.id);
    const [once, twice] = await Promise.all([
      pickupSessions.end(db, first, rec),
      pickupSessions.end(db, first, rec),
    ]);
    expect([once, twice].filter(Boolean)).toHaveLength(1);
    expect(await pickupSessions.active(db, 501)).toBeUndefined();
    const next = await pickupSessions.create(db, fields(501, 3_600_000), rec);
    expect((await pickupSessions.listBySchool(db, 501)).map((s) => s.id)).toEqual([next.id, first.id]);
  });

  it('finds only running sessions past their end time', async () => {
    const overdue = await pickupSessions.create(db, fields(601, -1_000), rec);
    const running = await pickupSessions.create(db, fields(602, 3_600_000), rec);
    const ids = (await pickupSessions.overdue(db)).map((s) => s.id);
    expect(ids).toContain(overdue.id);
    expect(ids).not.toContain(running.id);
    await pickupSessions.end(db, overdue, rec);
    expect((await pickupSessions.overdue(db)).map((s) => s.id)).not.toContain(overdue.id);
  });
});

describe('sign-in sessions and throttling', () => {
  it('treats an expired session as absent even before TTL deletes it', async () => {
    await authSessions.put(db, 'tok-live', {
      userId: 1,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await authSessions.put(db, 'tok-old', { userId: 1, expiresAt: new Date(Date.now() - 1).toISOString() });
    expect(await authSessions.get(db, 'tok-live')).toMatchObject({ userId: 1 });
    expect(await authSessions.get(db, 'tok-old')).toBeUndefined();
    await authSessions.revoke(db, 'tok-live');
    expect(await authSessions.get(db, 'tok-live')).toBeUndefined();
  });

  it("reads a caller's sign-in, user, school and district in one call, an expired sign-in as none", async () => {
    const district = await districts.create(db, { name: 'Reads', active: true, sandbox: false });
    const school = await schools.create(db, {
      name: 'R',
      districtId: district.id,
      active: true,
      sandbox: true,
    });
    const user = await users.create(db, {
      name: 'Rae',
      username: 'rae.reads',
      email: null,
      phone: null,
      role: 'teacher',
      active: true,
      schoolId: school.id,
      districtId: district.id,
      passwordHash: 'hash',
    });
    const later = new Date(Date.now() + 60_000).toISOString();
    await authSessions.put(db, 'tok-reads', { userId: user.id, expiresAt: later });
    await authSessions.put(db, 'tok-reads-old', {
      userId: user.id,
      expiresAt: new Date(Date.now() - 1).toISOString(),
    });
    const place = { schoolId: school.id, districtId: district.id };
    const read = await callerReads(db, 'tok-reads', user.id, place);
    expect(read.session).toEqual({ userId: user.id, expiresAt: later });
    expect(read.user).toMatchObject({ id: user.id, username: 'rae.reads' });
    expect(read.user).not.toHaveProperty('passwordHash');
    expect(read.user).not.toHaveProperty('hasPassword');
    expect(read.school).toEqual(school);
    expect(read.district).toEqual(district);
    const bare = await callerReads(db, 'tok-reads', user.id);
    expect([bare.school, bare.district]).toEqual([undefined, undefined]);
    expect((await callerReads(db, 'tok-reads-old', user.id, place)).session).toBeUndefined();
    expect((await callerReads(db, 'tok-none', 987654)).user).toBeUndefined();
  });

  it("revokes every session of one user at once, and no one else's", async () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    for (let i = 0; i < 30; i++) await authSessions.put(db, `mine-${i}`, { userId: 41, expiresAt: later });
    await authSessions.put(db, 'theirs', { userId: 42, expiresAt: later });
    expect(await authSessions.revokeAllOf(db, 41)).toHaveLength(30);
    expect(await authSessions.get(db, 'mine-0')).toBeUndefined();
    expect(await authSessions.get(db, 'mine-29')).toBeUndefined();
    expect(await authSessions.get(db, 'theirs')).toMatchObject({ userId: 42 });
  });

  /**
   * Throttle counts live in fixed windows: a day's window keeps these tests' few attempts in one
   * (a minute's window was crossed once on a busy machine, and the later attempts counted afresh).
   */
  const WINDOW_MS = 86_400_000;

  it('lets exactly the limit through when attempts arrive all at once, and a release gives one back', async () => {
    const limit = [{ scope: 'scope-a', limit: 5 }];
    const burst = await Promise.all(Array.from({ length: 12 }, () => throttle.reserve(db, limit, WINDOW_MS)));
    expect(burst.filter((attempt) => attempt.allowed)).toHaveLength(5);

    await burst.find((attempt) => attempt.allowed)?.release();
    expect((await throttle.reserve(db, limit, WINDOW_MS)).allowed).toBe(true);
    expect((await throttle.reserve(db, limit, WINDOW_MS)).allowed).toBe(false);
    await throttle.clear(db, 'scope-a', WINDOW_MS);
    expect((await throttle.reserve(db, limit, WINDOW_MS)).allowed).toBe(true);
  });

  it('counts nothing against one scope when another scope of the attempt is at its limit', async () => {
    const full = { scope: 'scope-full', limit: 1 };
    const open = { scope: 'scope-open', limit: 2 };
    expect((await throttle.reserve(db, [full], WINDOW_MS)).allowed).toBe(true);
    expect((await throttle.reserve(db, [open, full], WINDOW_MS)).allowed).toBe(false);
    expect((await throttle.reserve(db, [open], WINDOW_MS)).allowed).toBe(true);
    expect((await throttle.reserve(db, [open], WINDOW_MS)).allowed).toBe(true);
    expect((await throttle.reserve(db, [open], WINDOW_MS)).allowed).toBe(false);
  });
});

describe('connections', () => {
  const connectionDb = createDb({
    table: process.env.CONNECTION_TABLE_NAME as string,
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
  });

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
});

describe('queue entries and batches', () => {
  const queueCar = (sessionId: number, vehicleNumber: string) =>
    queue.add(
      db,
      {
        sessionId,
        schoolId: 1,
        vehicleId: null,
        vehicleNumber,
        vehicleType: 'car',
        entryTime: new Date().toISOString(),
        queueTime: new Date().toISOString(),
        vehicle: null,
        students: [],
      },
      rec,
    );

  it('refuses a change made from a batch-less read of a car another tablet has put into a batch', async () => {
    const sessionId = 9101;
    const seen = await queueCar(sessionId, '41');
    const batch = await batches.create(
      db,
      { sessionId, schoolId: 1, vehicleType: 'car', maxCapacity: 8 },
      rec,
    );
    expect(await batches.addEntry(db, batch, seen, rec)).toBe('added');

    await expect(queue.complete(db, seen, rec)).rejects.toThrow(ConflictError);
    await expect(
      queue.update(db, seen, { status: 'overflow', batchId: null, batchNumber: null }, rec),
    ).rejects.toThrow(ConflictError);
    await expect(queue.remove(db, seen, rec)).rejects.toThrow(ConflictError);

    const [entry] = await queue.listActive(db, sessionId);
    expect(entry).toMatchObject({ vehicleNumber: '41', batchId: batch.id, status: 'waiting' });
    const current = (await batches.get(db, batch.id))!;
    expect(current.currentCount).toBe(1);
    expect(await batches.complete(db, current, [entry as QueueEntry], new Date().toISOString(), rec)).toBe(
      true,
    );
  });

  it('finds a completed pickup by the id it was queued with, and a completed batch by its members', async () => {
    const sessionId = 9102;
    const queued = await queueCar(sessionId, '42');
    const walkUp = await queue.complete(db, queued, rec);
    expect(walkUp.id).toBe(queued.id);
    expect(await queue.get(db, queued.id)).toMatchObject({ status: 'completed', vehicleNumber: '42' });

    const batch = await batches.create(
      db,
      { sessionId, schoolId: 1, vehicleType: 'car', maxCapacity: 8 },
      rec,
    );
    await batches.addEntry(db, batch, await queueCar(sessionId, '43'), rec);
    const endTime = new Date(Date.now() + 1000).toISOString();
    const loaded = await batches.withMembers(db, batch.id);
    const members = await batches.entries(db, loaded!.batch, loaded!.memberIds);
    expect(await batches.complete(db, loaded!.batch, members, endTime, rec)).toBe(true);
    const done = await batches.withMembers(db, batch.id);
    expect((await batches.entries(db, done!.batch, done!.memberIds)).map((e) => e.vehicleNumber)).toEqual([
      '43',
    ]);
  });
});

describe('releases and pickups', () => {
  /**
   * The table as DynamoDB under load answers it: each BatchWriteItem writes
   * only its first `accepted` puts and hands the rest back unprocessed.
   */
  const throttled = (accepted: number) => {
    const calls: number[] = [];
    const doc = {
      send: async (command: unknown) => {
        if (!(command instanceof BatchWriteCommand)) return db.doc.send(command as never);
        const requests = command.input.RequestItems?.[db.table] ?? [];
        calls.push(requests.length);
        const now = requests.slice(0, accepted);
        if (now.length > 0) {
          await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.table]: now } }));
        }
        const rest = requests.slice(accepted);
        return { UnprocessedItems: rest.length > 0 ? { [db.table]: rest } : {} };
      },
    };
    return { db: { table: db.table, doc: doc as unknown as Db['doc'] }, calls };
  };

  const inRoom = (classroomId: number | null) => (id: number) => ({
    id,
    classroomId,
    firstName: `First${id}`,
    lastName: `Last${id}`,
    grade: '3',
  });
  /** A completed visit carrying these students. */
  const car = (students: ReturnType<ReturnType<typeof inRoom>>[]) => [
    { id: `car-${students[0]?.id}`, vehicleNumber: '12', vehicleType: 'car' as const, students },
  ];
  const at = (sessionId: number) => ({ schoolId: 1, sessionId });

  it("answers a session's releases and pickups apart, one partition per classroom", async () => {
    const sessionId = 9201;
    await releases.release(db, at(sessionId), inRoom(7)(1), rec, '2030-01-01T15:00:00.000Z');
    await releases.pickUp(db, at(sessionId), car([1, 2].map(inRoom(7))), rec, '2030-01-01T15:05:00.000Z');
    await releases.pickUp(db, at(sessionId), car([3].map(inRoom(8))), rec, '2030-01-01T15:06:00.000Z');
    const { released, pickedUp } = await releases.ofClassrooms(db, sessionId, [7]);
    expect([...released]).toEqual([[1, '2030-01-01T15:00:00.000Z']]);
    expect([...pickedUp].sort()).toEqual([
      [1, '2030-01-01T15:05:00.000Z'],
      [2, '2030-01-01T15:05:00.000Z'],
    ]);
    expect([...(await releases.ofClassrooms(db, sessionId, [7, 8])).pickedUp.keys()].sort()).toEqual([
      1, 2, 3,
    ]);
    expect((await releases.ofClassrooms(db, 9299, [7])).pickedUp.size).toBe(0);
  });

  it('marks more than 25 students in chunks and sends unprocessed ones again', async () => {
    const sessionId = 9202;
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    const flaky = throttled(10);
    await releases.pickUp(flaky.db, at(sessionId), car(ids.map(inRoom(null))), rec);
    // 25 then 5 per chunk; each try gets 10 through.
    expect(flaky.calls).toEqual([25, 15, 5, 5]);
    const { pickedUp } = await releases.ofClassrooms(db, sessionId, [null]);
    expect([...pickedUp.keys()].sort((a, b) => a - b)).toEqual(ids);
  });

  it('fails when DynamoDB keeps items unprocessed after a few tries', async () => {
    const flaky = throttled(0);
    await expect(releases.pickUp(flaky.db, at(9203), car([1, 2].map(inRoom(1))), rec)).rejects.toThrow(
      /unprocessed/,
    );
    expect(flaky.calls).toEqual([2, 2, 2, 2, 2]);
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
