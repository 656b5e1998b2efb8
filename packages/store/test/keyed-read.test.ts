import { everyDay } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { newVehicle } from '../../../test/support/vehicles';
import { authSessions } from '../src/auth-session';
import { callerReads } from '../src/caller-reads';
import { classrooms } from '../src/classroom';
import { dismissalPlans } from '../src/dismissal-plan';
import { keyedReads } from '../src/keyed-read';
import { parentLinks } from '../src/parent';
import { programs } from '../src/program';
import { releases } from '../src/release';
import { students } from '../src/student';
import { users } from '../src/user';
import { vehicles } from '../src/vehicle';
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

  it("answer a release by way home's reads as the module's own: classrooms, its bus or program, plans and marks of 60 children", async () => {
    const schoolId = 7002;
    const room = await classrooms.create(db, { schoolId, name: 'Keyed 1', grade: '2', teacherId: null });
    const closed = await classrooms.create(db, { schoolId, name: 'Keyed 2', grade: '2', teacherId: null });
    await classrooms.update(db, { ...closed, active: false });
    const elsewhere = await classrooms.create(db, {
      schoolId: 7003,
      name: 'Keyed 3',
      grade: '2',
      teacherId: null,
    });
    const [bus, car, theirs] = [
      await vehicles.create(db, newVehicle(schoolId, 'K7', 'bus')),
      await vehicles.create(db, newVehicle(schoolId, 'K8', 'car')),
      await vehicles.create(db, newVehicle(7003, 'K9', 'bus')),
    ];
    const program = await programs.create(db, schoolId, {
      name: 'Keyed Club',
      kind: 'activity',
      location: null,
    });
    const children = [];
    for (let i = 0; i < 60; i++)
      children.push(
        await students.create(db, {
          schoolId,
          firstName: `K${i}`,
          lastName: 'Key',
          grade: '2',
          classroomId: room.id,
        }),
      );
    // Every other child walks; the first three were released already.
    await dismissalPlans.setMany(
      db,
      children
        .filter((_, i) => i % 2 === 0)
        .map((child) => ({
          schoolId,
          studentId: child.id,
          plan: everyDay({ mode: 'walker' }),
          before: undefined,
        })),
      { kind: 'schedule' },
      400,
    );
    const sessionId = 9002;
    for (const child of children.slice(0, 3))
      await releases.release(db, { schoolId, sessionId }, child, rec, '2030-01-01T15:00:00.000Z');

    const ids = children.map((child) => child.id);
    const [rooms, named, club, none, foreign, plans, marks] = await keyedReads.run(
      db,
      keyedReads.all(
        classrooms.keyedMany(schoolId, [room.id, closed.id, elsewhere.id, room.id]),
        vehicles.keyedBus(schoolId, bus.id),
        programs.keyed(schoolId, program.id),
        vehicles.keyedBus(schoolId, car.id),
        vehicles.keyedBus(schoolId, theirs.id),
        dismissalPlans.keyedOfStudents(schoolId, ids),
        releases.keyedReleaseMarks(sessionId, children),
      ),
    );
    // Only the school's active classroom, once; another school's or a closed one is not answered.
    expect(rooms).toEqual([await classrooms.get(db, schoolId, room.id)]);
    expect(named).toEqual({ id: bus.id, number: 'K7' });
    expect(club).toEqual(await programs.get(db, schoolId, program.id));
    // A car, or another school's bus, is no bus of the school.
    expect([none, foreign]).toEqual([undefined, undefined]);
    // 120 keys (two BatchGetItem): the same answers as the modules' own reads.
    expect(plans).toEqual(await dismissalPlans.ofStudents(db, schoolId, ids));
    expect(plans.size).toBe(30);
    expect(marks).toEqual(await releases.ofStudents(db, sessionId, children));
    expect([...marks.keys()].sort()).toEqual(ids.slice(0, 3).sort());
  });
});
