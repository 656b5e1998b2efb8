import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  busDaysOf,
  ConflictError,
  programsOf,
  SCHOOL_DAYS,
  type SchoolDay,
  ValidationError,
  type WayEvent,
  type WeeklyPlan,
} from '@curbside/domain';
import { deleteAll, getAll, putAll } from './batch-write';
import type { Db } from './db';
import { stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { migrateEntity } from './migration';
import { activeProgramCheck } from './program';
import { cancellationReasons, isConditionFailure, queryAll } from './query';
import { wayEventItem, wayEventPut } from './way-event';

/**
 * Students' default weekly plans (issue 51): `SCHOOL#{schoolId}#PLANS` /
 * `STUDENT#{id:010}` → the plan, a `version` raised by every write, when and
 * by whom. A school's plans are one partition (the whole school's day is one
 * Query); a set of students' is one BatchGetItem. A student without an item is
 * a car rider every day.
 */
const partition = (schoolId: number) => `SCHOOL#${schoolId}#PLANS`;
/** A student's plan key (for a read beside others: `visit-reads.ts`). */
export const planKey = (schoolId: number, studentId: number) => ({
  pk: partition(schoolId),
  sk: `STUDENT#${String(studentId).padStart(10, '0')}`,
});

export interface StoredPlan {
  schoolId: number;
  studentId: number;
  plan: WeeklyPlan;
  version: number;
  updatedAt: string;
}

export const toPlan = (item: Record<string, unknown>) => stripKeys<StoredPlan>(item);

/**
 * A bus's riders by key (issue 54): `SCHOOL#{schoolId}#BUS#{busId}#RIDERS` /
 * `RIDERS`, an attribute `s{studentId}` per student whose weekly plan names
 * that bus on some day: the days, and the version of the plan that put it
 * there. Kept by every write of a plan (`set` in its transaction; `setMany`
 * adding before the plans are written and removing after; `erase`), so it is
 * always a superset of the truth: a reader checks each rider against their plan.
 */
const ridersKey = (schoolId: number, busId: number) => ({
  pk: `SCHOOL#${schoolId}#BUS#${busId}#RIDERS`,
  sk: 'RIDERS',
});
const riderField = (studentId: number) => `s${studentId}`;
const RIDER_FIELD = /^s(\d+)$/;
/** A rider's entry in a bus's riders item. */
export interface BusRider {
  days: SchoolDay[];
  version: number;
}
/** The riders an item lists, by student. */
const ridersOf = (item: Record<string, unknown> | undefined): Map<number, BusRider> => {
  const riders = new Map<number, BusRider>();
  for (const [name, value] of Object.entries(item ?? {})) {
    const id = RIDER_FIELD.exec(name)?.[1];
    if (id !== undefined) riders.set(Number(id), value as BusRider);
  }
  return riders;
};
/** Set once the laptop's own table had its buses' riders filled (`fillBusRiders`). */
const RIDERS_MARK = { pk: 'MIGRATION#BUS_RIDERS', sk: 'BY_PLAN' };
/** A riders item's expression at most this many students (an expression's limits). */
const RIDERS_PER_UPDATE = 50;

/**
 * The Updates of the buses' riders items a plan's write changes (for its
 * transaction): each bus `after` names lists the student with its days; each
 * bus only `before` named no longer does.
 */
const riderUpdates = (db: Db, next: StoredPlan, before: WeeklyPlan | undefined) => {
  const { schoolId, studentId } = next;
  const now = busDaysOf(next.plan);
  const gone = [...busDaysOf(before).keys()].filter((busId) => !now.has(busId));
  return [
    ...[...now].map(([busId, days]) => ({
      Update: {
        TableName: db.table,
        Key: ridersKey(schoolId, busId),
        UpdateExpression: 'SET #rider = :rider, entity = :entity, schoolId = :schoolId, busId = :busId',
        ExpressionAttributeNames: { '#rider': riderField(studentId) },
        ExpressionAttributeValues: {
          ':rider': { days, version: next.version } satisfies BusRider,
          ':entity': 'busRiders',
          ':schoolId': schoolId,
          ':busId': busId,
        },
      },
    })),
    ...gone.map((busId) => ({
      Update: {
        TableName: db.table,
        Key: ridersKey(schoolId, busId),
        UpdateExpression: 'REMOVE #rider',
        ExpressionAttributeNames: { '#rider': riderField(studentId) },
      },
    })),
  ];
};

/** Groups `[bus, student, value]` by bus, in slices an expression can hold. */
const slicesByBus = <V>(entries: ReadonlyArray<readonly [number, number, V]>) => {
  const byBus = new Map<number, Array<[number, V]>>();
  for (const [busId, studentId, value] of entries) {
    const list = byBus.get(busId) ?? [];
    list.push([studentId, value]);
    byBus.set(busId, list);
  }
  return [...byBus].flatMap(([busId, list]) =>
    Array.from({ length: Math.ceil(list.length / RIDERS_PER_UPDATE) }, (_, i) => ({
      busId,
      riders: list.slice(i * RIDERS_PER_UPDATE, (i + 1) * RIDERS_PER_UPDATE),
    })),
  );
};

/**
 * Lists students on buses' riders items, many at once (an import, the
 * migration): one UpdateItem a bus per 50 students. `onlyNew`: a student
 * listed already keeps their entry (the migration: a write since is newer).
 */
const addRiders = async (
  db: Db,
  schoolId: number,
  riders: ReadonlyArray<readonly [number, number, BusRider]>,
  { onlyNew = false } = {},
) => {
  for (const { busId, riders: slice } of slicesByBus(riders)) {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: ridersKey(schoolId, busId),
        UpdateExpression: `SET entity = :entity, schoolId = :schoolId, busId = :busId, ${slice
          .map((_, i) => (onlyNew ? `#s${i} = if_not_exists(#s${i}, :s${i})` : `#s${i} = :s${i}`))
          .join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(slice.map(([id], i) => [`#s${i}`, riderField(id)])),
        ExpressionAttributeValues: {
          ':entity': 'busRiders',
          ':schoolId': schoolId,
          ':busId': busId,
          ...Object.fromEntries(slice.map(([, rider], i) => [`:s${i}`, rider])),
        },
      }),
    );
  }
};

/**
 * Takes students off buses' riders items after their plans no longer name
 * them (an import): each only while its entry is from a plan no newer than
 * the one written (`[bus, student, version]`), so a plan set meanwhile that
 * names the bus again keeps its entry. One UpdateItem a bus per 50 students;
 * should one entry be newer, one a student.
 */
const removeRiders = async (
  db: Db,
  schoolId: number,
  riders: ReadonlyArray<readonly [number, number, number]>,
) => {
  const remove = async (busId: number, slice: ReadonlyArray<[number, number]>) =>
    db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: ridersKey(schoolId, busId),
        UpdateExpression: `REMOVE ${slice.map((_, i) => `#s${i}`).join(', ')}`,
        ConditionExpression: slice
          .map((_, i) => `(attribute_not_exists(#s${i}) OR #s${i}.version <= :v${i})`)
          .join(' AND '),
        ExpressionAttributeNames: Object.fromEntries(slice.map(([id], i) => [`#s${i}`, riderField(id)])),
        ExpressionAttributeValues: Object.fromEntries(slice.map(([, version], i) => [`:v${i}`, version])),
      }),
    );
  for (const { busId, riders: slice } of slicesByBus(riders)) {
    try {
      await remove(busId, slice);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      for (const one of slice) {
        try {
          await remove(busId, [one]);
        } catch (each) {
          if (!isConditionFailure(each)) throw each;
        }
      }
    }
  }
};

const itemOf = (plan: StoredPlan) => ({
  ...planKey(plan.schoolId, plan.studentId),
  entity: 'dismissalPlan',
  ...plan,
});

/** A new plan, one version on from the plan it replaces. */
const nextOf = (
  schoolId: number,
  studentId: number,
  plan: WeeklyPlan,
  before: StoredPlan | undefined,
  at: string,
): StoredPlan => ({ schoolId, studentId, plan, version: (before?.version ?? 0) + 1, updatedAt: at });

const eventOf = (
  next: StoredPlan,
  before: StoredPlan | undefined,
  actor: WayEvent['actor'],
): Omit<WayEvent, 'id'> => ({
  schoolId: next.schoolId,
  studentId: next.studentId,
  at: next.updatedAt,
  actor,
  kind: 'plan_set',
  plan: { before: before?.plan ?? null, after: next.plan },
});

export const dismissalPlans = {
  /** Erases a student's weekly plan (issue 55), then takes them off the riders of the buses it named. */
  async erase(db: Db, schoolId: number, studentId: number): Promise<void> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: planKey(schoolId, studentId), ConsistentRead: true }),
    );
    await deleteAll(db, [planKey(schoolId, studentId)]);
    for (const busId of busDaysOf(Item ? toPlan(Item).plan : undefined).keys()) {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: ridersKey(schoolId, busId),
          UpdateExpression: 'REMOVE #rider',
          ExpressionAttributeNames: { '#rider': riderField(studentId) },
        }),
      );
    }
  },

  /**
   * The students a bus's riders item lists (those whose weekly plan names the
   * bus on some day, with the days; a superset: check each against its plan),
   * as a keyed read (`keyed-read.ts`).
   */
  keyedBusRiders(schoolId: number, busId: number): KeyedRead<Map<number, BusRider>> {
    const key = ridersKey(schoolId, busId);
    return { keys: [key], from: (found) => ridersOf(itemAt(found, key)) };
  },

  /**
   * `keyedBusRiders`, answering `undefined` where the bus has no riders item at
   * all (no plan has named it since issue 54's riders, or `fillBusRiders` has
   * not run yet on this table): a reader that must find every rider then reads
   * them another way (a bus release: every child of its classrooms).
   */
  keyedBusRidersKept(schoolId: number, busId: number): KeyedRead<Map<number, BusRider> | undefined> {
    const key = ridersKey(schoolId, busId);
    return {
      keys: [key],
      from: (found) => {
        const item = itemAt(found, key);
        return item === undefined ? undefined : ridersOf(item);
      },
    };
  },

  /**
   * Once, after the upgrade to issue 54's bus riders (never a request path):
   * lists every plan's student on the riders items of the buses it names. A
   * Scan of the table in pages; adds only (an entry written since is kept), so
   * it is safe before deploying and again after. `once`: skipped when a run
   * with `once` already finished (the laptop's start). Answers how many plans
   * name a bus.
   */
  async fillBusRiders(db: Db, { once = false } = {}): Promise<number> {
    let filled = 0;
    await migrateEntity(db, { entity: 'dismissalPlan', mark: RIDERS_MARK, once }, async (items) => {
      const bySchool = new Map<number, Array<[number, number, BusRider]>>();
      for (const plan of items.map(toPlan)) {
        const buses = busDaysOf(plan.plan);
        if (buses.size > 0) filled += 1;
        const list = bySchool.get(plan.schoolId) ?? [];
        for (const [busId, days] of buses)
          list.push([busId, plan.studentId, { days, version: plan.version }]);
        bySchool.set(plan.schoolId, list);
      }
      for (const [schoolId, riders] of bySchool) await addRiders(db, schoolId, riders, { onlyNew: true });
    });
    return filled;
  },

  /** Some students' plans (BatchGetItem, 100 keys a call); students without one are absent. */
  async ofStudents(
    db: Db,
    schoolId: number,
    studentIds: readonly number[],
  ): Promise<Map<number, StoredPlan>> {
    const items = await getAll(
      db,
      [...new Set(studentIds)].map((id) => planKey(schoolId, id)),
    );
    return new Map(items.map((item) => [item.studentId as number, toPlan(item)]));
  },

  /** `ofStudents` as a keyed read (`keyed-read.ts`, issue 54: in one BatchGetItem with a release's marks). */
  keyedOfStudents(schoolId: number, studentIds: readonly number[]): KeyedRead<Map<number, StoredPlan>> {
    const keys = [...new Set(studentIds)].map((id) => planKey(schoolId, id));
    return {
      keys,
      from: (found) => {
        const plans = new Map<number, StoredPlan>();
        for (const key of keys) {
          const item = itemAt(found, key);
          if (item) plans.set(item.studentId as number, toPlan(item));
        }
        return plans;
      },
    };
  },

  /** Every plan of a school (one partition, all pages). */
  async ofSchool(db: Db, schoolId: number): Promise<Map<number, StoredPlan>> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition(schoolId) },
    });
    return new Map(items.map((item) => [item.studentId as number, toPlan(item)]));
  },

  /**
   * Sets one student's plan with its record, in one transaction: held to the
   * plan read (`before`: none, or that version), every program it names
   * still active. 409 when the plan changed meanwhile; 400 when a program was
   * deactivated meanwhile.
   */
  async set(
    db: Db,
    input: {
      schoolId: number;
      studentId: number;
      plan: WeeklyPlan;
      before: StoredPlan | undefined;
      actor: WayEvent['actor'];
      retentionDays: number;
    },
  ): Promise<StoredPlan> {
    const next = nextOf(input.schoolId, input.studentId, input.plan, input.before, new Date().toISOString());
    const programIds = programsOf(SCHOOL_DAYS.map((day) => input.plan[day]));
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: itemOf(next),
                ConditionExpression: input.before ? 'version = :version' : 'attribute_not_exists(pk)',
                ...(input.before ? { ExpressionAttributeValues: { ':version': input.before.version } } : {}),
              },
            },
            wayEventPut(db, eventOf(next, input.before, input.actor), input.retentionDays),
            ...programIds.map((programId) => activeProgramCheck(db, input.schoolId, programId)),
            ...riderUpdates(db, next, input.before?.plan),
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const reasons = cancellationReasons(error);
      if (reasons.slice(2, 2 + programIds.length).includes('ConditionalCheckFailed')) {
        const message = 'That program is no longer offered';
        throw new ValidationError(message, [{ path: 'plan', message }]);
      }
      throw new ConflictError("This student's way home was changed meanwhile. Read it again and retry.");
    }
    return next;
  },

  /**
   * Sets many students' plans with their record (a students CSV import): batch
   * writes, not one transaction, like every other write of an import; the
   * events are written first, so no plan is ever without its record. The
   * buses' riders items are kept a superset of the truth throughout: a plan's
   * new buses list the student before it is written, the buses it no longer
   * names take them off after.
   */
  async setMany(
    db: Db,
    list: ReadonlyArray<{
      schoolId: number;
      studentId: number;
      plan: WeeklyPlan;
      before: StoredPlan | undefined;
    }>,
    actor: WayEvent['actor'],
    retentionDays: number,
  ): Promise<void> {
    const at = new Date().toISOString();
    const plans = list.map((entry) => nextOf(entry.schoolId, entry.studentId, entry.plan, entry.before, at));
    await putAll(
      db,
      plans.map((next, i) => wayEventItem(eventOf(next, list[i]?.before, actor), retentionDays)),
      8,
    );
    const bySchool = <V>(
      of: (next: StoredPlan, before: WeeklyPlan | undefined) => Array<readonly [number, number, V]>,
    ) => {
      const map = new Map<number, Array<readonly [number, number, V]>>();
      plans.forEach((next, i) => {
        const entries = map.get(next.schoolId) ?? [];
        entries.push(...of(next, list[i]?.before?.plan));
        map.set(next.schoolId, entries);
      });
      return map;
    };
    const added = bySchool((next) =>
      [...busDaysOf(next.plan)].map(
        ([busId, days]) => [busId, next.studentId, { days, version: next.version }] as const,
      ),
    );
    for (const [schoolId, riders] of added) await addRiders(db, schoolId, riders);
    await putAll(db, plans.map(itemOf), 8);
    const removed = bySchool((next, before) => {
      const now = busDaysOf(next.plan);
      return [...busDaysOf(before).keys()]
        .filter((busId) => !now.has(busId))
        .map((busId) => [busId, next.studentId, next.version] as const);
    });
    for (const [schoolId, riders] of removed) await removeRiders(db, schoolId, riders);
  },
};
