import {
  actorOf,
  CAR_EVERY_DAY,
  isSchoolDay,
  NotFoundError,
  SCHOOL_DAYS,
  type School,
  type SchoolDay,
  type Student,
  samePlan,
  sameWay,
  type User,
  type WayEvent,
  type WeeklyPlan,
  weekdayOf,
} from '@curbside/domain';
import { dismissalPlans, students, wayEvents } from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { publishToClassrooms } from './live-events';
import { retentionDays } from './record';
import { rosterSchool } from './roster/scope';
import { clockOf } from './school-clock';
import { checkOffered, wayOptionsOf, waysHomeOn, withNamedCar } from './ways-home';

/**
 * A student's default weekly plan (issue 51): every staff role of the school
 * reads it; school admins and above set it (the roster's "Way home" editor),
 * each change in the student's way-home record with its before and after.
 */

export interface StudentPlanAnswer {
  plan: WeeklyPlan;
  /** No plan was ever set: a car rider every day. */
  isDefault: boolean;
}

const activeStudent = async (schoolId: number, studentId: number) => {
  const student = await students.get(db, schoolId, studentId);
  if (!student?.active) throw new NotFoundError('Student not found');
  return student;
};

/**
 * When the edit changes today's way (today a school day, the weekly default
 * in force), the whole-line screens and the student's classroom hear today's
 * entry (`DISMISSAL_PLAN_CHANGED`). A failure is logged: screens read again.
 */
const tellToday = async (school: School, student: Student, before: WeeklyPlan, after: WeeklyPlan) => {
  const { today } = clockOf(school);
  if (!isSchoolDay(today)) return;
  const day = weekdayOf(today) as SchoolDay;
  if (sameWay(before[day], after[day])) return;
  try {
    const entries = await waysHomeOn(school.id, today, [student.id]);
    await publishToClassrooms(
      school.id,
      { type: 'DISMISSAL_PLAN_CHANGED', data: { date: today, students: entries, change: null } },
      [student.classroomId],
    );
  } catch (error) {
    log('warn', 'weekly plan change not told', { studentId: student.id, error: (error as Error).message });
  }
};

/** `GET /api/students/{id}/dismissal-plan`. */
export const studentPlan = async (
  user: User,
  studentId: number,
  schoolId?: number,
): Promise<StudentPlanAnswer> => {
  const school = await rosterSchool(user, schoolId, 'read');
  const [, plans] = await Promise.all([
    activeStudent(school.id, studentId),
    dismissalPlans.ofStudents(db, school.id, [studentId]),
  ]);
  const stored = plans.get(studentId);
  return stored ? { plan: stored.plan, isDefault: false } : { plan: CAR_EVERY_DAY, isDefault: true };
};

/**
 * `PUT /api/students/{id}/dismissal-plan`: the week, each day a way home the
 * school offers (one of its buses, an active program). Saving the same week
 * again writes nothing.
 */
export const setStudentPlan = async (
  user: User,
  studentId: number,
  plan: WeeklyPlan,
  schoolId?: number,
): Promise<StudentPlanAnswer> => {
  const school = await rosterSchool(user, schoolId, 'write');
  const [student, plans, options, days] = await Promise.all([
    activeStudent(school.id, studentId),
    dismissalPlans.ofStudents(db, school.id, [studentId]),
    wayOptionsOf(school.id),
    retentionDays(school.id),
  ]);
  checkOffered(
    SCHOOL_DAYS.map((day) => plan[day]),
    options,
    'plan',
  );
  const named = Object.fromEntries(
    await Promise.all(
      SCHOOL_DAYS.map(async (day) => [day, await withNamedCar(school.id, plan[day], `plan.${day}`)]),
    ),
  ) as WeeklyPlan;
  const before = plans.get(studentId);
  if (before && samePlan(before.plan, named)) return { plan: before.plan, isDefault: false };
  const saved = await dismissalPlans.set(db, {
    schoolId: school.id,
    studentId,
    plan: named,
    before,
    actor: actorOf(user),
    retentionDays: days,
  });
  await tellToday(school, student, before?.plan ?? CAR_EVERY_DAY, named);
  return { plan: saved.plan, isDefault: false };
};

/** `GET /api/students/{id}/way-history`: every plan edit, change, decision and cancellation, newest first. */
export const studentWayHistory = async (
  user: User,
  studentId: number,
  schoolId?: number,
): Promise<WayEvent[]> => {
  const school = await rosterSchool(user, schoolId, 'read');
  const student = await students.get(db, school.id, studentId);
  if (!student) throw new NotFoundError('Student not found');
  return wayEvents.ofStudent(db, school.id, studentId);
};
