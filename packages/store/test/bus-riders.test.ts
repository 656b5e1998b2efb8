import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { everyDay, type WeeklyPlan } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { dismissalChanges, keyedDayChanges, keyedStudentsNamingVehicle } from '../src/dismissal-change';
import { dismissalPlans, type StoredPlan } from '../src/dismissal-plan';
import { keyedReads } from '../src/keyed-read';
import { approvedChange } from './fixtures/changes';
import { db } from './fixtures/db';

/**
 * A bus's riders by key (issue 54): the item listing the students whose weekly
 * plan names the bus on some day, kept by every write of a plan, and the
 * changes naming a bus kept in its upcoming item, against DynamoDB Local.
 */
const actor = { kind: 'schedule' as const };
const byBus = (busId: number) => everyDay({ mode: 'bus', vehicleId: busId });
const walker = everyDay({ mode: 'walker' });
/** The bus's riders item, by student. */
const riders = (schoolId: number, busId: number) =>
  keyedReads.run(db, dismissalPlans.keyedBusRiders(schoolId, busId));
const listed = async (schoolId: number, busId: number) =>
  [...(await riders(schoolId, busId)).keys()].sort((a, b) => a - b);
const setOne = (schoolId: number, studentId: number, plan: WeeklyPlan, before?: StoredPlan) =>
  dismissalPlans.set(db, { schoolId, studentId, plan, before, actor, retentionDays: 400 });
const setMany = (
  schoolId: number,
  list: ReadonlyArray<{ studentId: number; plan: WeeklyPlan; before?: StoredPlan }>,
) =>
  dismissalPlans.setMany(
    db,
    list.map((entry) => ({ schoolId, before: undefined, ...entry })),
    actor,
    400,
  );

describe("a bus's riders item", () => {
  it('follows a plan set: its days on each bus it names, off the buses it no longer names', async () => {
    const schoolId = 5501;
    const first = await setOne(schoolId, 1, { ...byBus(71), fri: { mode: 'walker' } });
    expect(await riders(schoolId, 71)).toEqual(
      new Map([[1, { days: ['mon', 'tue', 'wed', 'thu'], version: 1 }]]),
    );

    const second = await setOne(schoolId, 1, { ...byBus(72), mon: { mode: 'bus', vehicleId: 71 } }, first);

    expect(await riders(schoolId, 71)).toEqual(new Map([[1, { days: ['mon'], version: 2 }]]));
    expect(await riders(schoolId, 72)).toEqual(
      new Map([[1, { days: ['tue', 'wed', 'thu', 'fri'], version: 2 }]]),
    );
    await setOne(schoolId, 1, walker, second);
    expect(await listed(schoolId, 71)).toEqual([]);
    expect(await listed(schoolId, 72)).toEqual([]);
  });

  it('follows an import: new buses before, old ones after; an entry set meanwhile by a newer plan is kept', async () => {
    const schoolId = 5502;
    await setMany(
      schoolId,
      [1, 2, 3].map((studentId) => ({ studentId, plan: byBus(81) })),
    );
    expect(await listed(schoolId, 81)).toEqual([1, 2, 3]);
    const before = await dismissalPlans.ofStudents(db, schoolId, [1, 2, 3]);
    // Student 2's plan set again meanwhile (a newer version naming the bus): its entry is that plan's.
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: { pk: `SCHOOL#${schoolId}#BUS#81#RIDERS`, sk: 'RIDERS' },
        UpdateExpression: 'SET s2 = :rider',
        ExpressionAttributeValues: { ':rider': { days: ['mon'], version: 9 } },
      }),
    );

    await setMany(
      schoolId,
      [1, 2, 3].map((studentId) => ({ studentId, plan: byBus(82), before: before.get(studentId) })),
    );

    expect(await listed(schoolId, 81)).toEqual([2]);
    expect(await listed(schoolId, 82)).toEqual([1, 2, 3]);
  });

  it('follows an erasure: the student leaves the riders of the buses their plan named', async () => {
    const schoolId = 5503;
    await setOne(schoolId, 1, { ...byBus(91), fri: { mode: 'bus', vehicleId: 92 } });
    await setOne(schoolId, 2, byBus(91));

    await dismissalPlans.erase(db, schoolId, 1);

    expect(await listed(schoolId, 91)).toEqual([2]);
    expect(await listed(schoolId, 92)).toEqual([]);
    expect(await dismissalPlans.ofStudents(db, schoolId, [1])).toEqual(new Map());
  });

  it('is filled by the migration for plans written before it, keeping an entry written since', async () => {
    const schoolId = 5504;
    await setOne(schoolId, 1, byBus(61));
    await setOne(schoolId, 2, byBus(61));
    // As written before the riders items: the plans alone; student 2's entry written since.
    await db.doc.send(
      new DeleteCommand({
        TableName: db.table,
        Key: { pk: `SCHOOL#${schoolId}#BUS#61#RIDERS`, sk: 'RIDERS' },
      }),
    );
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { pk: `SCHOOL#${schoolId}#BUS#61#RIDERS`, sk: 'RIDERS', s2: { days: ['tue'], version: 7 } },
      }),
    );

    expect(await dismissalPlans.fillBusRiders(db)).toBeGreaterThanOrEqual(2);

    expect(await riders(schoolId, 61)).toEqual(
      new Map([
        [1, { days: ['mon', 'tue', 'wed', 'thu', 'fri'], version: 1 }],
        [2, { days: ['tue'], version: 7 }],
      ]),
    );
  });
});

describe('the changes naming a bus (its upcoming item)', () => {
  it('are read by key with the bus, and the migration puts there one written before', async () => {
    const schoolId = 5505;
    const today = new Date().toISOString().slice(0, 10);
    const change = await approvedChange(db, schoolId, 3, { date: today }, { mode: 'bus', vehicleId: 51 });
    const ofBus = () =>
      keyedReads.run(db, keyedDayChanges(schoolId, today, { studentIds: [], vehicleId: 51 }));
    expect(await ofBus()).toEqual([change]);

    // As written before: no copy in the bus's item, the table marked by the items by student and car.
    await db.doc.send(
      new DeleteCommand({
        TableName: db.table,
        Key: { pk: `SCHOOL#${schoolId}#CAR#51#CHANGES`, sk: 'UPCOMING' },
      }),
    );
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          pk: 'MIGRATION#DISMISSAL_CHANGES',
          sk: 'BY_LAST_DAY_AND_UPCOMING_BY_STUDENT',
          entity: 'migration',
        },
      }),
    );
    expect(await ofBus()).toEqual([]);

    await dismissalChanges.moveToLastDayIndex(db, { once: true });

    expect(await ofBus()).toEqual([change]);
  });
});

describe("a bus release's candidates by key", () => {
  it("the riders item, or none where the bus never had one (the migration's caveat)", async () => {
    const schoolId = 5506;
    const kept = () => keyedReads.run(db, dismissalPlans.keyedBusRidersKept(schoolId, 91));
    expect(await kept()).toBeUndefined();
    const first = await setOne(schoolId, 1, byBus(91));
    expect([...((await kept()) ?? new Map()).keys()]).toEqual([1]);
    await setOne(schoolId, 1, walker, first);
    // Kept, and empty: nobody rides it by plan.
    expect(await kept()).toEqual(new Map());
  });

  it('the students of the changes naming a bus, any day they may still fall on, once each', async () => {
    const schoolId = 5507;
    const naming = () => keyedReads.run(db, keyedStudentsNamingVehicle(schoolId, 52));
    expect(await naming()).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const later = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await approvedChange(db, schoolId, 4, { date: today }, { mode: 'bus', vehicleId: 52 });
    await approvedChange(db, schoolId, 4, { date: later }, { mode: 'bus', vehicleId: 52 });
    await approvedChange(db, schoolId, 5, { date: later }, { mode: 'bus', vehicleId: 52 });
    await approvedChange(db, schoolId, 6, { date: today }, { mode: 'bus', vehicleId: 53 });
    expect(await naming()).toEqual(expect.arrayContaining([4, 5]));
    expect(await naming()).toHaveLength(2);
  });
});
