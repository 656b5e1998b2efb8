import {
  actorOf,
  type Classroom,
  parentContactOf,
  personOf,
  RowsRejectedError,
  type School,
  type User,
} from '@curbside/domain';
// The import's rules and planning: a module of their own, loaded with the first import (ADR 0019).
import {
  type ImportKind,
  type ImportPlan,
  type ImportResult,
  newIdCounts,
  type ParentRecord,
  type PlanOutcome,
  planParentImport,
  planStudentImport,
  planTeacherImport,
  planVehicleImport,
  type RowError,
  remapIds,
  validateRows,
} from '@curbside/domain/roster-import';
import {
  classrooms,
  dismissalPlans,
  NO_PASSWORD,
  nextIds,
  parentLinks,
  parents,
  programs,
  type StoredPlan,
  students,
  users,
  vehicles,
} from '@curbside/store';
import { db } from '../../lib/context';
import { log } from '../../lib/log';
import { retentionDays } from '../record';
import { createWithFreeUsername } from './credentials';
import { parentUsername } from './parents';
import { rosterSchool } from './scope';

/** Runs `work` over `items`, at most `limit` at a time. */
const bounded = async <T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};

const toParentRecord = (user: User): ParentRecord => ({
  ...personOf(user),
  ...parentContactOf(user),
  schoolId: user.schoolId,
  studentIds: [...new Set(user.studentIds ?? [])],
  ...(user.madeBySchoolId !== undefined ? { madeBySchoolId: user.madeBySchoolId } : {}),
});

/** Reads what the file is matched against and plans the change (nothing is written). */
const plan = async (
  kind: ImportKind,
  school: School,
  records: Array<Record<string, string>>,
): Promise<{
  outcome: PlanOutcome;
  validationErrors: RowError[];
  parentsBefore: Map<number, { record: ParentRecord; user: User; passwordHash: string }>;
  plansBefore: Map<number, StoredPlan>;
}> => {
  const schoolId = school.id;
  let plansBefore = new Map<number, StoredPlan>();
  const parentsBefore = new Map<number, { record: ParentRecord; user: User; passwordHash: string }>();
  const remember = (list: Array<{ user: User; passwordHash: string }>) =>
    list.map(({ user, passwordHash }) => {
      const record = toParentRecord(user);
      parentsBefore.set(record.id, { record, user, passwordHash });
      return record;
    });
  switch (kind) {
    case 'students': {
      const { rows, errors } = validateRows('students', records);
      const wantsPlans = rows.some((row) => row.dismissal);
      const [all, rooms, fleet, parentList, programList, plans] = await Promise.all([
        students.listAll(db, schoolId),
        classrooms.listAll(db, schoolId),
        vehicles.listAll(db, schoolId),
        parents.listAll(db, schoolId),
        wantsPlans ? programs.ofSchool(db, schoolId) : [],
        wantsPlans ? dismissalPlans.ofSchool(db, schoolId) : new Map<number, StoredPlan>(),
      ]);
      const outcome = planStudentImport(rows, {
        schoolId,
        students: all,
        classrooms: rooms,
        vehicles: fleet,
        parents: remember(parentList),
        programs: programList,
        plans: new Map([...plans].map(([id, stored]) => [id, stored.plan])),
      });
      plansBefore = plans;
      return { outcome, validationErrors: errors, parentsBefore, plansBefore };
    }
    case 'teachers': {
      const { rows, errors } = validateRows('teachers', records);
      const wanted = rows.flatMap((row) => (row.username ? [row.username] : []));
      const [teachers, rooms, claims] = await Promise.all([
        users.teachersOfSchool(db, schoolId),
        classrooms.listAll(db, schoolId),
        users.claims(db, wanted, 'staff'),
      ]);
      const own = new Set(teachers.map((teacher) => teacher.id));
      const takenUsernames = new Set(
        [...claims].filter(([, userId]) => !own.has(userId)).map(([name]) => name),
      );
      const outcome = planTeacherImport(rows, {
        schoolId,
        teachers: teachers.map(personOf),
        classrooms: rooms,
        takenUsernames,
      });
      return { outcome, validationErrors: errors, parentsBefore, plansBefore };
    }
    case 'parents': {
      const { rows, errors } = validateRows('parents', records);
      const [parentList, all] = await Promise.all([
        parents.listAll(db, schoolId),
        students.listAll(db, schoolId),
      ]);
      const outcome = planParentImport(rows, { schoolId, parents: remember(parentList), students: all });
      return { outcome, validationErrors: errors, parentsBefore, plansBefore };
    }
    case 'vehicles': {
      const { rows, errors } = validateRows('vehicles', records);
      const outcome = planVehicleImport(rows, { schoolId, vehicles: await vehicles.listAll(db, schoolId) });
      return { outcome, validationErrors: errors, parentsBefore, plansBefore };
    }
  }
};

/** Real ids for the plan's temporary ones: one counter raise per kind. */
const withRealIds = async (planned: ImportPlan): Promise<ImportPlan> => {
  const counts = newIdCounts(planned);
  const [student, user, vehicle, classroom] = await Promise.all([
    nextIds(db, 'student', counts.student),
    nextIds(db, 'user', counts.user),
    nextIds(db, 'vehicle', counts.vehicle),
    nextIds(db, 'classroom', counts.classroom),
  ]);
  const blocks = { student, user, vehicle, classroom };
  return remapIds(planned, (kind, temp) => blocks[kind][-temp - 1] as number);
};

/**
 * Writes a plan: classrooms, students, accounts, vehicles, then links, so a
 * write cut short leaves nothing pointing at a record that is not there yet
 * (importing the same file again completes it).
 */
const write = async (
  user: User,
  school: School,
  planned: ImportPlan,
  before: {
    parents: Map<number, { record: ParentRecord; user: User; passwordHash: string }>;
    plans: Map<number, StoredPlan>;
  },
  phases: Record<string, number>,
) => {
  const parentsBefore = before.parents;
  let mark = Date.now();
  const phase = (name: string) => {
    phases[name] = Date.now() - mark;
    mark = Date.now();
  };
  await classrooms.putMany(db, [...planned.classrooms.create, ...planned.classrooms.update] as Classroom[]);
  await students.putMany(db, [...planned.students.create, ...planned.students.update]);
  phase('studentsMs');

  // New teachers get no password (hashing one costs ~0.75 s: 80 rows would outlast the request).
  // The school gives each a one-time password from the Teachers list when they need to sign in.
  await bounded(planned.teachers.create, 8, (teacher) =>
    createWithFreeUsername(
      {
        name: teacher.name,
        firstName: teacher.firstName,
        lastName: teacher.lastName,
        email: teacher.email,
        phone: teacher.phone,
        role: 'teacher',
        active: true,
        schoolId: school.id,
        districtId: school.districtId,
        passwordHash: NO_PASSWORD,
      },
      teacher.username,
      { id: teacher.id },
    ),
  );
  await bounded(planned.teachers.update, 8, async (teacher) => {
    const { id, username: _, ...profile } = teacher;
    const current = await users.get(db, id);
    if (current) await users.updateProfile(db, current, profile);
  });
  phase('teachersMs');

  // Imported parents get an account that cannot sign in until the school gives it a password
  // (which also claims its username).
  await users.createMany(
    db,
    planned.parents.create.map((parent) => ({
      id: parent.id,
      name: parent.name,
      username: parentUsername(parent),
      firstName: parent.firstName,
      lastName: parent.lastName,
      email: parent.email,
      phone: parent.phone,
      address: parent.address,
      emergencyContact: parent.emergencyContact,
      emergencyPhone: parent.emergencyPhone,
      studentIds: parent.studentIds,
      role: 'parent' as const,
      active: true,
      schoolId: school.id,
      districtId: null,
      madeBySchoolId: school.id,
    })),
  );
  await users.putMany(
    db,
    planned.parents.update.flatMap((parent) => {
      const before = parentsBefore.get(parent.id);
      if (!before) return [];
      const { id: _, username: __, schoolId: ___, ...profile } = parent;
      return [{ user: { ...before.user, ...profile }, passwordHash: before.passwordHash }];
    }),
  );
  phase('parentsMs');

  await vehicles.putMany(db, [...planned.vehicles.create, ...planned.vehicles.update]);
  phase('vehiclesMs');

  const links = [...planned.parents.create, ...planned.parents.update].flatMap((parent) => {
    const before = new Set(parentsBefore.get(parent.id)?.record.studentIds ?? []);
    return parent.studentIds
      .filter((studentId) => !before.has(studentId))
      .map((studentId) => ({ parentId: parent.id, schoolId: school.id, studentId }));
  });
  await parentLinks.linkMany(db, links);
  phase('linksMs');

  // Weekly ways home (issue 51), each with its record.
  if (planned.dismissalPlans.length > 0) {
    await dismissalPlans.setMany(
      db,
      planned.dismissalPlans.map((entry) => ({
        schoolId: school.id,
        studentId: entry.studentId,
        plan: entry.plan,
        before: before.plans.get(entry.studentId),
      })),
      actorOf(user),
      await retentionDays(school.id),
    );
    phase('plansMs');
  }
};

/**
 * Imports a roster file (CSV in the template's columns). Any invalid row
 * refuses the whole file: 400 with every bad row, nothing written. A valid
 * file creates, updates and leaves unchanged; importing it again changes nothing.
 */
export const importRoster = async (
  user: User,
  kind: ImportKind,
  schoolId: number | undefined,
  text: string,
): Promise<ImportResult> => {
  const started = Date.now();
  const school = await rosterSchool(user, schoolId, 'write');
  // The CSV parser (papaparse) is loaded by an import alone, not at the function's cold start.
  const { parseRosterCsv } = await import('@curbside/domain/csv');
  const parsed = parseRosterCsv(kind, text);
  if (parsed.errors.length > 0) {
    throw new RowsRejectedError(
      parsed.errors.some((error) => error.row === 1)
        ? 'The file does not have the template’s columns; nothing was imported'
        : 'The file could not be read; nothing was imported',
      parsed.errors,
    );
  }
  const phases: Record<string, number> = { parseMs: Date.now() - started };
  const { outcome, validationErrors, parentsBefore, plansBefore } = await plan(kind, school, parsed.records);
  phases.planMs = Date.now() - started - (phases.parseMs ?? 0);
  const errors = [...validationErrors, ...(outcome.ok ? [] : outcome.errors)].sort(
    (a, b) => a.row - b.row || (a.column ?? '').localeCompare(b.column ?? ''),
  );
  if (!outcome.ok || errors.length > 0) {
    const rows = new Set(errors.map((error) => error.row)).size;
    throw new RowsRejectedError(
      `${rows} row${rows === 1 ? ' has' : 's have'} problems; nothing was imported. Fix ${rows === 1 ? 'it' : 'them'} and import the file again.`,
      errors,
    );
  }
  const planned = await withRealIds(outcome.plan);
  await write(user, school, planned, { parents: parentsBefore, plans: plansBefore }, phases);
  const result: ImportResult = {
    ...planned.counts,
    also: {
      classroomsCreated: planned.classrooms.create.length,
      vehiclesCreated: kind === 'vehicles' ? 0 : planned.vehicles.create.length,
      vehiclesUpdated: kind === 'vehicles' ? 0 : planned.vehicles.update.length,
      parentsCreated: kind === 'parents' ? 0 : planned.parents.create.length,
      parentsUpdated: kind === 'parents' ? 0 : planned.parents.update.length,
    },
    // No import makes a password (teachers and parents get theirs from the school's lists).
    credentials: [],
  };
  log('info', 'roster imported', {
    kind,
    schoolId: school.id,
    rows: parsed.records.length,
    ms: Date.now() - started,
    ...phases,
    ...planned.counts,
  });
  return result;
};
