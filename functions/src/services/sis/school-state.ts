import type { Classroom, School, SisRecordKind, Student, User } from '@curbside/domain';
import { classrooms, importJobs, parents, schools, students, users } from '@curbside/store';
import { db } from '../../lib/context';
import { CleverError } from './clever';

/** The local records of one school, as the import matches against them (read once per run and school). */
export interface SchoolState {
  school: School;
  teachers: Map<string, User>;
  teachersByEmail: Map<string, User>;
  rooms: Map<string, Classroom>;
  roomsByName: Map<string, Classroom>;
  students: Map<string, Student>;
  parents: Map<string, { user: User; passwordHash: string }>;
  parentsByEmail: Map<string, { user: User; passwordHash: string }>;
  /** Student Clever id → section Clever id (from what the sections step saw). */
  sectionOf: Map<string, string>;
}

export const lower = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();

/** The school's local records, and which section each student is in as far as this job has read. */
export const loadSchool = async (jobId: string, schoolId: number): Promise<SchoolState> => {
  const school = await schools.get(db, schoolId);
  if (!school) throw new CleverError('The school to import into no longer exists', null);
  const [teacherList, roomList, studentList, parentList, sectionPages] = await Promise.all([
    users.teachersOfSchool(db, schoolId),
    classrooms.listAll(db, schoolId),
    students.listAll(db, schoolId),
    parents.listAll(db, schoolId),
    importJobs.seen(db, jobId, `${schoolId}#sections`),
  ]);
  const byClever = <T extends { cleverId?: string }>(list: readonly T[]) =>
    new Map(list.flatMap((item) => (item.cleverId ? [[item.cleverId, item] as const] : [])));
  const sectionOf = new Map<string, string>();
  for (const page of sectionPages) {
    for (const [section, members] of Object.entries(page.members ?? {})) {
      for (const student of members) sectionOf.set(student, section);
    }
  }
  return {
    school,
    teachers: byClever(teacherList),
    teachersByEmail: new Map(
      teacherList.filter((t) => !t.cleverId && t.email).map((t) => [lower(t.email), t] as const),
    ),
    rooms: byClever(roomList),
    roomsByName: new Map(roomList.filter((r) => !r.cleverId).map((r) => [lower(r.name), r] as const)),
    students: byClever(studentList),
    parents: new Map(parentList.flatMap((p) => (p.user.cleverId ? [[p.user.cleverId, p] as const] : []))),
    // Only the school's own accounts: a parent who registered themselves typed their email (never a key).
    parentsByEmail: new Map(
      parentList
        .filter((p) => !p.user.cleverId && p.user.email && p.user.madeBySchoolId === schoolId)
        .map((p) => [lower(p.user.email), p] as const),
    ),
    sectionOf,
  };
};

/**
 * Whether an import sets an account active: a new one, an active one, or one
 * an earlier import retired (the SIS lists them again) is; one the school
 * deactivated stays as the school left it.
 */
export const activeAfterImport = (existing: User | undefined) =>
  !existing || existing.active || existing.retiredBySis === true;

/** Counts one outcome (or `n`) of a kind of record for the job's summary. */
export type Tally = (
  kind: SisRecordKind,
  outcome: 'created' | 'updated' | 'unchanged' | 'deactivated',
  n?: number,
) => void;
