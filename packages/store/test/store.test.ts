import { ConflictError } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { authSessions } from '../src/auth-session';
import { callerReads } from '../src/caller-reads';
import { districts } from '../src/district';
import { pickupSessions } from '../src/pickup-session';
import { schools } from '../src/school';
import { throttle } from '../src/throttle';
import { users } from '../src/user';
import { db, rec } from './fixtures/db';

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
