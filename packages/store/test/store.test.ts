import { ConflictError } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { authSessions } from '../src/auth-session';
import { connections } from '../src/connection';
import { createDb } from '../src/db';
import { districts } from '../src/district';
import { pickupSessions } from '../src/pickup-session';
import { schools } from '../src/school';
import { throttle } from '../src/throttle';
import { users } from '../src/user';

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
    const first = await pickupSessions.create(db, fields(501, 3_600_000));
    await expect(pickupSessions.create(db, fields(501, 3_600_000))).rejects.toBeInstanceOf(ConflictError);
    expect((await pickupSessions.active(db, 501))?.id).toBe(first.id);
    const [once, twice] = await Promise.all([pickupSessions.end(db, first), pickupSessions.end(db, first)]);
    expect([once, twice].filter(Boolean)).toHaveLength(1);
    expect(await pickupSessions.active(db, 501)).toBeUndefined();
    const next = await pickupSessions.create(db, fields(501, 3_600_000));
    expect((await pickupSessions.listBySchool(db, 501)).map((s) => s.id)).toEqual([next.id, first.id]);
  });

  it('finds only running sessions past their end time', async () => {
    const overdue = await pickupSessions.create(db, fields(601, -1_000));
    const running = await pickupSessions.create(db, fields(602, 3_600_000));
    const ids = (await pickupSessions.overdue(db)).map((s) => s.id);
    expect(ids).toContain(overdue.id);
    expect(ids).not.toContain(running.id);
    await pickupSessions.end(db, overdue);
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

  it('counts failures atomically within a window', async () => {
    await Promise.all(Array.from({ length: 7 }, () => throttle.fail(db, 'scope-a', 60_000)));
    expect((await throttle.count(db, 'scope-a', 60_000)).failures).toBe(7);
    await throttle.clear(db, 'scope-a', 60_000);
    expect((await throttle.count(db, 'scope-a', 60_000)).failures).toBe(0);
  });
});

describe('connections', () => {
  it('lists a channel by query and forgets a removed connection', async () => {
    await connections.put(db, {
      connectionId: 'c1',
      channels: ['public', 'school#9#staff'],
      userId: 3,
      connectedAt: 'now',
    });
    await connections.put(db, { connectionId: 'c2', channels: ['public'], userId: null, connectedAt: 'now' });
    expect((await connections.inChannel(db, 'public')).sort()).toEqual(['c1', 'c2']);
    expect(await connections.inChannel(db, 'school#9#staff')).toEqual(['c1']);
    await connections.remove(db, 'c1');
    expect(await connections.inChannel(db, 'public')).toEqual(['c2']);
    expect(await connections.inChannel(db, 'school#9#staff')).toEqual([]);
    expect(await connections.get(db, 'c1')).toBeUndefined();
  });

  it('removes a membership left behind without its connection row, given the channel it was found in', async () => {
    await connections.put(db, {
      connectionId: 'c3',
      channels: ['school#8#staff'],
      userId: 4,
      connectedAt: 'now',
    });
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: { pk: 'CONN#c3', sk: 'CONN' } }));
    expect(await connections.inChannel(db, 'school#8#staff')).toEqual(['c3']);
    await connections.remove(db, 'c3', ['school#8#staff']);
    expect(await connections.inChannel(db, 'school#8#staff')).toEqual([]);
  });
});
