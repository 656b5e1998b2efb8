import type { Changes, ImportPlan } from './plan';

/** Temporary ids of a plan and their swap for real ones before anything is written. */

/** How many temporary ids of each kind a plan holds (the ids to allocate). */
export const newIdCounts = (plan: ImportPlan) => ({
  student: plan.students.create.length,
  user: plan.teachers.create.length + plan.parents.create.length,
  vehicle: plan.vehicles.create.length,
  classroom: plan.classrooms.create.length,
});

/**
 * Swaps a plan's temporary ids (negative) for real ones, in every record and
 * every reference (a student's classroom, a vehicle's and a parent's
 * students, a classroom's teacher). `real(kind, temp)` gives the real id.
 */
export const remapIds = (
  plan: ImportPlan,
  real: (kind: 'student' | 'user' | 'vehicle' | 'classroom', temp: number) => number,
): ImportPlan => {
  const id = (kind: Parameters<typeof real>[0]) => (value: number) => (value < 0 ? real(kind, value) : value);
  const student = id('student');
  const user = id('user');
  const vehicle = id('vehicle');
  const classroom = id('classroom');
  const both = <T>(c: Changes<T>, f: (record: T) => T): Changes<T> => ({
    create: c.create.map(f),
    update: c.update.map(f),
  });
  return {
    counts: plan.counts,
    students: both(plan.students, (s) => ({
      ...s,
      id: student(s.id),
      classroomId: s.classroomId === null ? null : classroom(s.classroomId),
    })),
    teachers: both(plan.teachers, (t) => ({ ...t, id: user(t.id) })),
    parents: both(plan.parents, (p) => ({ ...p, id: user(p.id), studentIds: p.studentIds.map(student) })),
    vehicles: both(plan.vehicles, (v) => ({
      ...v,
      id: vehicle(v.id),
      studentIds: v.studentIds.map(student),
    })),
    classrooms: both(plan.classrooms, (c) => ({
      ...c,
      id: classroom(c.id),
      teacherId: c.teacherId === null ? null : user(c.teacherId),
    })),
    dismissalPlans: plan.dismissalPlans.map((entry) => ({ ...entry, studentId: student(entry.studentId) })),
  };
};
