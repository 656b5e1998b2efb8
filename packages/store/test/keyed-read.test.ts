import { describe, expect, it } from 'vitest';
import { authSessions } from '../src/auth-session';
import { callerReads } from '../src/caller-reads';
import { keyedReads } from '../src/keyed-read';
import { parentLinks } from '../src/parent';
import { releases } from '../src/release';
import { students } from '../src/student';
import { users } from '../src/user';
import { db, rec } from './fixtures/db';

/**
 * Keyed reads (issue 54): a request's first reads by key, in its caller's
 * sign-in BatchGetItem or on their own, answer what the module's own reads
 * answer, of the items asked for only.
 */
describe('keyed reads', () => {
  it("answer a parent's links, children and marks as the Queries do, with the sign-in in one read", async () => {
    const schoolId = 7001;
    const make = (firstName: string, classroomId: number | null) =>
      students.create(db, { schoolId, firstName, lastName: 'Key', grade: '2', classroomId });
    const [ann, ben, cal] = [await make('Ann', 1), await make('Ben', null), await make('Cal', 2)];
    await students.update(db, { ...cal, active: false });
    const parent = await users.create(db, {
      name: 'Pat',
      username: 'pat.keyed',
      email: null,
      phone: null,
      role: 'parent',
      active: true,
      schoolId: null,
      districtId: null,
      passwordHash: 'hash',
    });
    for (const child of [ann, ben, cal]) await parentLinks.link(db, parent.id, schoolId, child.id);
    const sessionId = 9001;
    const at = { schoolId, sessionId };
    await releases.release(db, at, ann, rec, '2030-01-01T15:00:00.000Z');
    // Another child's mark in Ann's classroom is not Ann's.
    const other = await make('Dee', 1);
    await releases.release(db, at, other, rec, '2030-01-01T15:01:00.000Z');

    const links = await parentLinks.childrenOf(db, parent.id);
    const ids = [ann.id, ben.id, cal.id];
    const read = keyedReads.all(
      parentLinks.stillLinked(parent.id, links),
      students.keyedMany(schoolId, ids),
      releases.keyedOfStudents(sessionId, [ann, ben]),
    );
    const [linked, children, marks] = await keyedReads.run(db, read);
    expect(linked).toEqual(links);
    expect(children).toEqual(await students.getMany(db, schoolId, ids));
    expect(children.map((child) => child.firstName)).toEqual(['Ann', 'Ben']);
    expect([...marks.released]).toEqual([[ann.id, '2030-01-01T15:00:00.000Z']]);
    expect(marks.pickedUp.size).toBe(0);

    // With the sign-in: the same answers from what the one read found.
    const later = new Date(Date.now() + 60_000).toISOString();
    await authSessions.put(db, 'tok-keyed', { userId: parent.id, expiresAt: later });
    const signIn = await callerReads(db, 'tok-keyed', parent.id, undefined, Date.now(), read);
    expect(signIn.user).toMatchObject({ id: parent.id });
    expect(read.from(signIn.found)).toEqual([linked, children, marks]);

    // A link removed is not answered; nothing at all is asked when there is nothing to read.
    await parentLinks.unlinkStudent(db, { ...parent, studentIds: [] }, schoolId, ben.id);
    const [still] = await keyedReads.run(db, read);
    expect(still.map((link) => link.studentId)).toEqual(
      links.map((l) => l.studentId).filter((id) => id !== ben.id),
    );
    expect(await keyedReads.run(db, keyedReads.none('nothing'))).toBe('nothing');
  });
});
