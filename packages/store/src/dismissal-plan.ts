import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  ConflictError,
  programsOf,
  SCHOOL_DAYS,
  ValidationError,
  type WayEvent,
  type WeeklyPlan,
} from '@curbside/domain';
import { deleteAll, getAll, putAll } from './batch-write';
import type { Db } from './db';
import { stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
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
  /** Erases a student's weekly plan (issue 55). */
  async erase(db: Db, schoolId: number, studentId: number): Promise<void> {
    await deleteAll(db, [planKey(schoolId, studentId)]);
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
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const reasons = cancellationReasons(error);
      if (reasons.slice(2).includes('ConditionalCheckFailed')) {
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
   * events are written first, so no plan is ever without its record.
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
    await putAll(db, plans.map(itemOf), 8);
  },
};
