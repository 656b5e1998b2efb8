import type { WeeklyPlan } from '../dismissal-plans';
import type { Classroom } from '../pickup';
import type { Vehicle } from '../queue';
import type { ParentContact, Person, Student } from '../roster';
import { normalize, phoneDigits } from '../roster';
import type { ImportCounts, RowError } from '../roster-import-basics';

/** What a file changes (an import plan) and the bookkeeping the four planners share. */

// ---------------------------------------------------------------------------
// Plans. New records get negative temporary ids (one sequence per kind); the
// service swaps them for real ids (`remapIds`) before anything is written.

/** A parent account as the roster keeps it. */
export interface ParentRecord extends Person, ParentContact {
  schoolId: number | null;
  studentIds: number[];
  /** The school that made the account (absent: its holder registered it, and typed its contact). */
  madeBySchoolId?: number;
}
/** A teacher account as the roster keeps it. */
export type TeacherRecord = Person;

export interface Changes<T> {
  create: T[];
  update: T[];
}
export const changes = <T>(): Changes<T> => ({ create: [], update: [] });

export interface ImportPlan {
  counts: ImportCounts;
  students: Changes<Student>;
  teachers: Changes<TeacherRecord>;
  parents: Changes<ParentRecord>;
  vehicles: Changes<Vehicle>;
  classrooms: Changes<Classroom>;
  /** Students' new weekly plans (the students file's `dismissal` column; only those that change). */
  dismissalPlans: Array<{ studentId: number; plan: WeeklyPlan }>;
}

export type PlanOutcome = { ok: true; plan: ImportPlan } | { ok: false; errors: RowError[] };

export const emptyPlan = (): ImportPlan => ({
  counts: { created: 0, updated: 0, unchanged: 0 },
  students: changes(),
  teachers: changes(),
  parents: changes(),
  vehicles: changes(),
  classrooms: changes(),
  dismissalPlans: [],
});

/** Temporary ids: -1, -2, … per kind. */
export const tempIds = () => {
  const next: Record<string, number> = {};
  return (kind: 'student' | 'user' | 'vehicle' | 'classroom') => {
    next[kind] = (next[kind] ?? 0) - 1;
    return next[kind];
  };
};

export const sameFields = <T extends object>(a: T, b: T, fields: ReadonlyArray<keyof T>) =>
  fields.every((field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null));

/**
 * Tracks the records a plan touches: originals are kept aside, so only what
 * really changed is written.
 */
export class Tracker<T extends { id: number }> {
  private readonly originals = new Map<number, string>();
  private readonly touched = new Map<number, T>();
  private readonly created = new Set<number>();

  add(record: T): T {
    this.created.add(record.id);
    this.touched.set(record.id, record);
    return record;
  }
  /** A working copy of an existing record (the same copy on every call). */
  edit(record: T): T {
    const copy = this.touched.get(record.id);
    if (copy) return copy;
    const clone = structuredClone(record);
    this.originals.set(record.id, JSON.stringify(record));
    this.touched.set(record.id, clone);
    return clone;
  }
  result(): Changes<T> {
    const out = changes<T>();
    for (const [id, record] of this.touched) {
      if (this.created.has(id)) out.create.push(record);
      else if (this.originals.get(id) !== JSON.stringify(record)) out.update.push(record);
    }
    return out;
  }
}

/** Remembers the natural keys of the rows so far; answers the earlier row a row repeats, if any. */
export const repeats = () => {
  const seen = new Map<string, number>();
  return (row: number, keys: ReadonlyArray<string | null | false | undefined>): number | undefined => {
    const present = keys.filter((key): key is string => Boolean(key));
    const earlier = present.map((key) => seen.get(key)).find((value) => value !== undefined);
    if (earlier === undefined) for (const key of present) seen.set(key, row);
    return earlier;
  };
};

export const addOnce = (list: number[], id: number) => {
  if (!list.includes(id)) list.push(id);
};

export const groupBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    map.set(k, [...(map.get(k) ?? []), item]);
  }
  return map;
};

export interface ClassroomFinder {
  /** The active classroom of that name, or a new one with that grade (an error without a grade). */
  byName: (name: string, grade: string | null, row: number, errors: RowError[]) => Classroom | null;
}

export const classroomFinder = (
  existing: readonly Classroom[],
  tracker: Tracker<Classroom>,
  schoolId: number,
  nextId: ReturnType<typeof tempIds>,
): ClassroomFinder => {
  const byName = new Map(existing.filter((room) => room.active).map((room) => [normalize(room.name), room]));
  return {
    byName: (name, grade, row, errors) => {
      const found = byName.get(normalize(name));
      if (found) return found;
      if (!grade) {
        errors.push({ row, column: 'grade', message: `Grade is required to create classroom ${name}` });
        return null;
      }
      const room = tracker.add({
        id: nextId('classroom'),
        schoolId,
        name,
        grade,
        teacherId: null,
        active: true,
      });
      byName.set(normalize(name), room);
      return room;
    },
  };
};

/**
 * The school's own parent accounts by email and by phone digits, growing as
 * the plan adds some. Only accounts this school made are keys: a parent who
 * registered themselves typed their email and phone, which nobody checked, so
 * a row naming that contact gets an account of its own (never that one).
 */
export const parentIndex = (parents: readonly ParentRecord[], schoolId: number) => {
  const byEmail = new Map<string, ParentRecord>();
  const byPhone = new Map<string, ParentRecord>();
  const add = (parent: ParentRecord) => {
    if (parent.email) byEmail.set(normalize(parent.email), parent);
    if (parent.phone) byPhone.set(phoneDigits(parent.phone), parent);
  };
  for (const parent of parents) if (parent.active && parent.madeBySchoolId === schoolId) add(parent);
  const find = (email: string | null, phone: string | null) =>
    (email ? byEmail.get(normalize(email)) : undefined) ??
    (phone ? byPhone.get(phoneDigits(phone)) : undefined);
  return { add, find };
};
