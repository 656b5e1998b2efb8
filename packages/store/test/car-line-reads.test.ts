import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DismissalChange } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { newVehicle } from '../../../test/support/vehicles';
import { dismissalChanges, keyedDayChanges } from '../src/dismissal-change';
import { dismissalPlans } from '../src/dismissal-plan';
import { keyedReads } from '../src/keyed-read';
import { meter } from '../src/meter';
import { pickupSessions } from '../src/pickup-session';
import { programs } from '../src/program';
import { queue } from '../src/queue';
import { students } from '../src/student';
import { vehicles } from '../src/vehicle';
import { namesForCalls, sessionAndVehicle, studentsWithPlans } from '../src/visit-reads';
import { approvedChange } from './fixtures/changes';
import { rec, testDb } from './fixtures/db';
import { meterOnForEachTest } from './meter-on';

/**
 * What queueing a car reads (issue 54): who the car calls today and the
 * vehicle with its session, in as few DynamoDB calls as the access patterns
 * allow, against DynamoDB Local.
 */
/** This file's table, its calls counted by the meter (while a test turns it on). */
const db = testDb({ meter: true });
const person = { id: 1, name: 'Office', role: 'school_admin' as const };
const actor = { kind: 'schedule' as const };

const aChange = (
  schoolId: number,
  studentId: number,
  day: { date: string; until?: string },
  way?: DismissalChange['way'],
): Promise<DismissalChange> => approvedChange(db, schoolId, studentId, day, way);

/** A registered vehicle of the school with no details but its children. */
const aVehicle = (schoolId: number, type: 'car' | 'bus', number: string, studentIds: number[] = []) =>
  vehicles.create(db, newVehicle(schoolId, number, type, { studentIds }));

const callsOf = (operation: string) => meter.snapshot().unlabelled?.[`ddb.${operation}.calls`] ?? 0;
const ids = (list: readonly { id: number }[]) => list.map((item) => item.id).sort((a, b) => a - b);

describe("the changes that may fall on a school's day", () => {
  meterOnForEachTest();

  it("are that day's single changes and the repeating ones running on it, in one Query", async () => {
    const schoolId = 5401;
    const today = await aChange(schoolId, 1, { date: '2026-12-01' });
    const running = await aChange(schoolId, 2, { date: '2026-11-20', until: '2026-12-18' });
    const endsThatDay = await aChange(schoolId, 3, { date: '2026-11-02', until: '2026-12-01' });
    await aChange(schoolId, 4, { date: '2026-12-02' }); // the next day
    await aChange(schoolId, 5, { date: '2026-11-30' }); // the day before
    await aChange(schoolId, 6, { date: '2026-11-01', until: '2026-11-30' }); // ended the day before
    await aChange(schoolId, 7, { date: '2026-12-02', until: '2026-12-20' }); // starts the next day
    await aChange(5402, 1, { date: '2026-12-01' }); // another school's
    meter.reset();

    const found = await dismissalChanges.mayFallOn(db, schoolId, '2026-12-01');

    expect(ids(found)).toEqual(ids([today, running, endsThatDay]));
    expect(callsOf('Query')).toBe(1);
  });

  it('of some students are theirs only, in the same one Query; above 100 students, every one', async () => {
    const schoolId = 5404;
    const [ann, ben] = [
      await aChange(schoolId, 1, { date: '2026-12-01' }),
      await aChange(schoolId, 2, { date: '2026-11-20', until: '2026-12-18' }),
    ];
    const others = await aChange(schoolId, 3, { date: '2026-12-01' });
    await aChange(schoolId, 1, { date: '2026-12-02' }); // Ann's of the next day
    meter.reset();

    expect(ids(await dismissalChanges.mayFallOnFor(db, schoolId, '2026-12-01', [1, 2, 9]))).toEqual(
      ids([ann, ben]),
    );
    expect(callsOf('Query')).toBe(1);
    expect(await dismissalChanges.mayFallOnFor(db, schoolId, '2026-12-01', [])).toEqual([]);
    const many = Array.from({ length: 101 }, (_, i) => i + 100);
    expect(ids(await dismissalChanges.mayFallOnFor(db, schoolId, '2026-12-01', many))).toEqual(
      ids([ann, ben, others]),
    );
  });

  it('include a change written before the index by last day once it was moved, and the laptop moves them once', async () => {
    const schoolId = 5403;
    const change = await aChange(schoolId, 1, { date: '2026-12-03' });
    // As the code before issue 54 wrote a single change: in its day's partition.
    const {
      gsi1pk: _,
      gsi1sk: __,
      ...item
    } = (await dismissalChanges.get(db, change.id)) as never as Record<string, unknown>;
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...item,
          pk: `DCHANGE#${change.id}`,
          sk: 'DCHANGE',
          entity: 'dismissalChange',
          gsi1pk: `SCHOOL#${schoolId}#CHANGES#2026-12-03`,
          gsi1sk: `${change.createdAt}#${String(change.id).padStart(10, '0')}`,
          gsi2pk: `SCHOOL#${schoolId}#STUDENT#1#CHANGES`,
          gsi2sk: `2026-12-03#${String(change.id).padStart(10, '0')}`,
        },
      }),
    );
    expect(await dismissalChanges.mayFallOn(db, schoolId, '2026-12-03')).toEqual([]);

    expect(await dismissalChanges.moveToLastDayIndex(db, { once: true })).toBeGreaterThanOrEqual(1);

    expect(await dismissalChanges.mayFallOn(db, schoolId, '2026-12-03')).toEqual([change]);
    expect(await dismissalChanges.moveToLastDayIndex(db, { once: true })).toBe(0);
    expect(await dismissalChanges.moveToLastDayIndex(db)).toBe(0);
  });
});

/** The date `offset` days from today (UTC). */
const dayFrom = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** A student's upcoming item (issue 54: the changes that may still fall on a day, by key). */
const upcomingItem = async (schoolId: number, studentId: number) =>
  (
    await db.doc.send(
      new GetCommand({
        TableName: db.table,
        Key: { pk: `SCHOOL#${schoolId}#STUDENT#${studentId}#CHANGES`, sk: 'UPCOMING' },
        ConsistentRead: true,
      }),
    )
  ).Item ?? {};
const keptIds = (item: Record<string, unknown>) =>
  Object.keys(item)
    .filter((name) => /^c\d+$/.test(name))
    .map((name) => Number(name.slice(1)))
    .sort((a, b) => a - b);
const readUnits = () => meter.snapshot().unlabelled?.['ddb.readUnits'] ?? 0;
/** The day's changes of a car's children (`vehicleId`: the car, for the changes naming it), by key alone. */
const dayChangesOf = (schoolId: number, date: string, studentIds: number[], vehicleId?: number) =>
  keyedReads.run(db, keyedDayChanges(schoolId, date, { studentIds, vehicleId }));
const sendCancelled = async (schoolId: number, change: DismissalChange) => {
  const cancelled: DismissalChange = {
    ...change,
    status: 'cancelled',
    cancelledFrom: dayFrom(0),
    cancelledBy: person,
    cancelledAt: new Date().toISOString(),
  };
  await dismissalChanges.transition(db, change, cancelled, {
    actor,
    retentionDays: 400,
    event: {
      schoolId,
      studentId: change.studentId,
      at: cancelled.cancelledAt,
      actor,
      kind: 'change_cancelled',
      change: { before: null, after: cancelled },
    },
  } as Parameters<typeof dismissalChanges.transition>[3]);
};

describe("the day's changes by key (each student's upcoming item, issue 54)", () => {
  meterOnForEachTest();

  it('answer as the Query does for the car’s children, in their BatchGetItem, other students’ changes left out, a cancellation at once', async () => {
    const schoolId = 5411;
    const single = await aChange(schoolId, 1, { date: dayFrom(0) });
    const running = await aChange(schoolId, 2, { date: dayFrom(-5), until: dayFrom(10) });
    await aChange(schoolId, 3, { date: dayFrom(0) }); // another child of the school, not in the car
    await aChange(schoolId, 1, { date: dayFrom(1) }); // the next day
    await aChange(schoolId, 2, { date: dayFrom(-3), until: dayFrom(-1) }); // ended yesterday
    await aChange(5412, 1, { date: dayFrom(0) }); // another school's
    const queried = (await dismissalChanges.mayFallOn(db, schoolId, dayFrom(0))).filter(
      (change) => change.studentId !== 3,
    );
    meter.reset();

    const read = await studentsWithPlans(
      db,
      schoolId,
      [1, 2],
      keyedDayChanges(schoolId, dayFrom(0), { studentIds: [1, 2] }),
    );

    expect(ids(read.also as DismissalChange[])).toEqual(ids([single, running]));
    expect(read.also).toEqual(queried);
    expect(callsOf('BatchGetItem')).toBe(1);
    expect(callsOf('Query')).toBe(0);

    // The office cancels the repeating one: its copy is the cancelled change at once.
    await sendCancelled(schoolId, running);
    expect(await dayChangesOf(schoolId, dayFrom(0), [1, 2])).toEqual(
      (await dismissalChanges.mayFallOn(db, schoolId, dayFrom(0))).filter((change) => change.studentId !== 3),
    );
    expect(
      ((await dayChangesOf(schoolId, dayFrom(0), [1, 2])) as DismissalChange[]).find(
        (change) => change.id === running.id,
      )?.status,
    ).toBe('cancelled');
  });

  it('include a change of another child that names the car (going home with another family)', async () => {
    const schoolId = 5416;
    const own = await aChange(schoolId, 1, { date: dayFrom(0) });
    const withUs = await aChange(schoolId, 7, { date: dayFrom(0) }, { mode: 'car', vehicleId: 90 });
    await aChange(schoolId, 8, { date: dayFrom(0) }, { mode: 'car', vehicleId: 91 }); // another car's

    expect(ids((await dayChangesOf(schoolId, dayFrom(0), [1], 90)) as DismissalChange[])).toEqual(
      ids([own, withUs]),
    );
    // Cancelled: the car's copy too, at once.
    await sendCancelled(schoolId, withUs);
    const read = (await dayChangesOf(schoolId, dayFrom(0), [1], 90)) as DismissalChange[];
    expect(read.find((change) => change.id === withUs.id)?.status).toBe('cancelled');
  });

  it('cost a car the same read units whatever the school’s other students’ changes', async () => {
    const schoolId = 5417;
    await aChange(schoolId, 1, { date: dayFrom(0) });
    await aChange(schoolId, 2, { date: dayFrom(-2), until: dayFrom(5) });
    const unitsOfCar = async () => {
      meter.reset();
      await studentsWithPlans(
        db,
        schoolId,
        [1, 2],
        keyedDayChanges(schoolId, dayFrom(0), { studentIds: [1, 2] }),
      );
      return readUnits();
    };
    const alone = await unitsOfCar();

    // A weekend's day: 300 other children with a change for it.
    for (let start = 0; start < 300; start += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => aChange(schoolId, 100 + start + i, { date: dayFrom(0) })),
      );
    }

    expect(await unitsOfCar()).toBe(alone);
  });

  it('leave a student’s item as their changes end, and with the student erased', async () => {
    const schoolId = 5413;
    const kept = await aChange(schoolId, 1, { date: dayFrom(0) });
    const other = await aChange(schoolId, 2, { date: dayFrom(0) });
    const named = await aChange(schoolId, 1, { date: dayFrom(1) }, { mode: 'car', vehicleId: 93 });
    // Written late (a repeating change entered for days past): kept until the student's next write.
    const ended = await aChange(schoolId, 1, { date: dayFrom(-6), until: dayFrom(-3) });
    expect(keptIds(await upcomingItem(schoolId, 1))).toEqual(ids([kept, named, ended]));
    // The next write drops the change that ended before yesterday.
    const next = await aChange(schoolId, 1, { date: dayFrom(2) });
    expect(keptIds(await upcomingItem(schoolId, 1))).toEqual(ids([kept, named, next]));

    await dismissalChanges.eraseOfStudent(db, schoolId, 1);
    expect(await upcomingItem(schoolId, 1)).toEqual({});
    expect(keptIds(await upcomingItem(schoolId, 2))).toEqual(ids([other]));
    expect(await dayChangesOf(schoolId, dayFrom(1), [], 93)).toEqual([]);
  });

  it('are read by Query once a student’s item would pass 200 KB: the item keeps the overflow mark alone', async () => {
    const schoolId = 5415;
    // As an item with about 200 KB of upcoming changes stands (a safety: a student's never should).
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          pk: `SCHOOL#${schoolId}#STUDENT#1#CHANGES`,
          sk: 'UPCOMING',
          c1: { note: 'x'.repeat(200 * 1024) },
        },
      }),
    );
    await aChange(schoolId, 1, { date: dayFrom(0) });

    expect(await upcomingItem(schoolId, 1)).toEqual(expect.objectContaining({ overflow: true }));
    expect(keptIds(await upcomingItem(schoolId, 1))).toEqual([]);
    // One child's overflow: the car's read answers so (its caller takes the Query).
    await aChange(schoolId, 2, { date: dayFrom(0) });
    expect(await dayChangesOf(schoolId, dayFrom(0), [2, 1])).toBe('overflow');
    // The student's next change writes the small mark again, not a copy.
    await aChange(schoolId, 1, { date: dayFrom(0) });
    expect(keptIds(await upcomingItem(schoolId, 1))).toEqual([]);
  });

  it('include a change written before them once the migration ran, on a table marked by the school’s item', async () => {
    const schoolId = 5414;
    const change = await aChange(schoolId, 1, { date: dayFrom(1) });
    const named = await aChange(schoolId, 2, { date: dayFrom(1) }, { mode: 'car', vehicleId: 94 });
    // As written before the items by student: the changes alone, the table marked by the school's item.
    for (const pk of [`SCHOOL#${schoolId}#STUDENT#1#CHANGES`, `SCHOOL#${schoolId}#CAR#94#CHANGES`])
      await db.doc.send(new DeleteCommand({ TableName: db.table, Key: { pk, sk: 'UPCOMING' } }));
    await db.doc.send(
      new DeleteCommand({
        TableName: db.table,
        Key: { pk: 'MIGRATION#DISMISSAL_CHANGES', sk: 'BY_LAST_DAY_AND_UPCOMING_BY_VEHICLE' },
      }),
    );
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { pk: 'MIGRATION#DISMISSAL_CHANGES', sk: 'BY_LAST_DAY_AND_UPCOMING', entity: 'migration' },
      }),
    );
    expect(await dayChangesOf(schoolId, dayFrom(1), [1], 94)).toEqual([]);

    await dismissalChanges.moveToLastDayIndex(db, { once: true });

    expect(keptIds(await upcomingItem(schoolId, 1))).toEqual([change.id]);
    expect(await dayChangesOf(schoolId, dayFrom(1), [1], 94)).toEqual([change, named]);
  });
});

describe('a car’s children, their plans, its session and the vehicle', () => {
  meterOnForEachTest();

  it('reads the children and their weekly plans in one BatchGetItem, leaving a deactivated child out', async () => {
    const schoolId = 5404;
    const child = (firstName: string) =>
      students.create(db, { schoolId, firstName, lastName: 'Reads', grade: '2', classroomId: null });
    const [ana, ben, cal] = [await child('Ana'), await child('Ben'), await child('Cal')];
    await students.update(db, { ...cal, active: false });
    const plan = {
      mon: { mode: 'walker' },
      tue: { mode: 'car' },
      wed: { mode: 'car' },
      thu: { mode: 'car' },
      fri: { mode: 'car' },
    };
    await dismissalPlans.set(db, {
      schoolId,
      studentId: ben.id,
      plan: plan as never,
      before: undefined,
      actor,
      retentionDays: 400,
    });
    meter.reset();

    const read = await studentsWithPlans(db, schoolId, [ben.id, ana.id, cal.id, ben.id]);

    expect(read.students.map((student) => student.firstName)).toEqual(['Ana', 'Ben']);
    expect([...read.plans.keys()]).toEqual([ben.id]);
    expect(read.plans.get(ben.id)?.plan).toEqual(plan);
    expect(callsOf('BatchGetItem')).toBe(1);
    expect(callsOf('Query') + callsOf('GetItem')).toBe(0);
  });

  it('reads the session and the vehicle in one BatchGetItem; a deactivated vehicle is not found', async () => {
    const schoolId = 5405;
    const session = await pickupSessions.create(
      db,
      {
        schoolId,
        name: 'Afternoon Pickup',
        type: 'afternoon_pickup',
        startTime: new Date().toISOString(),
        endTime: new Date(Date.now() + 3_600_000).toISOString(),
        notes: null,
      },
      rec,
    );
    const car = await aVehicle(schoolId, 'car', '54A', [1]);
    meter.reset();

    const read = await sessionAndVehicle(db, { schoolId, sessionId: session.id, type: 'car', number: '54a' });

    expect(read).toEqual({ session, vehicle: car, visited: false, queued: false });
    expect(callsOf('BatchGetItem')).toBe(1);
    // Queued now: its slot in the line is read with them (a second add is refused from this read, h54ze).
    const now = new Date().toISOString();
    await queue.add(
      db,
      queue.entryOf({
        sessionId: session.id,
        schoolId,
        vehicleId: car.id,
        vehicleNumber: '54A',
        vehicleType: 'car',
        entryTime: now,
        queueTime: now,
        vehicle: null,
        students: [],
      }),
      rec,
    );
    expect(
      (await sessionAndVehicle(db, { schoolId, sessionId: session.id, type: 'car', number: '54a' })).queued,
    ).toBe(true);
    await vehicles.update(db, car, { ...car, active: false });
    expect(
      (await sessionAndVehicle(db, { schoolId, sessionId: session.id, type: 'car', number: '54A' })).vehicle,
    ).toBeUndefined();
    expect(
      (await sessionAndVehicle(db, { schoolId: 5406, sessionId: session.id, type: 'car', number: '54A' }))
        .vehicle,
    ).toBeUndefined();
  });
});

describe("the names a visit's reasons need", () => {
  meterOnForEachTest();

  const aBus = (schoolId: number, number: string) => aVehicle(schoolId, 'bus', number);

  it('are the students changed to the car, the buses and the programs named, in one BatchGetItem, none of another school', async () => {
    const schoolId = 5407;
    const [bus, elsewhere] = [await aBus(schoolId, '7'), await aBus(5408, '8')];
    const club = await programs.create(db, schoolId, {
      name: 'Chess Club',
      kind: 'activity',
      location: null,
    });
    const friend = await students.create(db, {
      schoolId,
      firstName: 'Dee',
      lastName: 'Friend',
      grade: '1',
      classroomId: null,
    });
    meter.reset();

    const read = await namesForCalls(db, schoolId, {
      studentIds: [friend.id],
      busIds: [bus.id, elsewhere.id, bus.id],
      programIds: [club.id],
    });

    expect(read.students.map((student) => student.id)).toEqual([friend.id]);
    expect(read.options.buses).toEqual([{ id: bus.id, number: '7' }]);
    expect(read.options.programs).toEqual([
      { id: club.id, name: 'Chess Club', kind: 'activity', location: null, active: true },
    ]);
    expect(callsOf('BatchGetItem')).toBe(1);
    expect(await namesForCalls(db, schoolId, { studentIds: [], busIds: [], programIds: [] })).toEqual({
      students: [],
      options: { buses: [], programs: [] },
    });
    expect(callsOf('BatchGetItem')).toBe(1);
  });
});
