import {
  type Classroom,
  ConflictError,
  emptyCounts,
  gradeFromSis,
  type ImportJob,
  namesFromSis,
  normalize,
  type School,
  type SisCounts,
  type SisRecordKind,
  type Student,
  sameFields,
  summarizeCounts,
  type User,
  usernameFromName,
} from '@curbside/domain';
import {
  classrooms,
  cleverLinks,
  districts,
  type ImportCheckpoint,
  importJobs,
  NO_PASSWORD,
  nextIds,
  parentLinks,
  parents,
  type StoredImportJob,
  schools,
  students,
  users,
} from '@curbside/store';
import { db } from '../../lib/context';
import { log } from '../../lib/log';
import { endSignIns } from '../auth';
import { createWithFreeUsername } from '../roster/credentials';
import { parentUsername } from '../roster/parents';
import {
  CleverClient,
  type CleverDistrict,
  CleverError,
  type CleverSchool,
  type CleverSection,
  type CleverUser,
} from './clever';
import { tokenOf } from './districts';

/**
 * Runs import jobs, a page at a time, saving a checkpoint after each page:
 * a run stops cleanly before its time is up (and is continued by another),
 * a failed job keeps what it finished and resumes from its checkpoint.
 *
 * A school's import reads, in order: its teachers (staff accounts with role
 * teacher, matched by Clever id, else by email among the school's teachers),
 * its sections (classrooms: by Clever id, else by name; made when missing if
 * asked), its students (by Clever id; their classroom from their section),
 * the district's contacts (parent accounts of the school, by Clever id, else
 * by email among the accounts the school made; linked to their children of
 * this school), then retires what the
 * SIS no longer lists (records with a Clever id that no page of this job saw
 * are deactivated). Only records that changed are written, so an import run
 * again writes nothing.
 */

/** What a job was asked to do. */
export interface ImportRequest {
  cleverDistrictId: string;
  /** The local district (null: a super admin's district import makes a new one). */
  localDistrictId: number | null;
  /** District and school imports: the one record. */
  cleverSchoolId?: string;
  /** Student imports and syncs: the schools, each a Clever school into a local one. */
  schools: Array<{ cleverSchoolId: string; localSchoolId: number }>;
  createMissingClassrooms: boolean;
}

export const SCHOOL_STEPS = ['teachers', 'sections', 'students', 'contacts', 'retire'] as const;
type SchoolStep = (typeof SCHOOL_STEPS)[number];
/** How much of a school's import each step is, in percent. */
const STEP_SHARE: Record<SchoolStep, number> = {
  teachers: 5,
  sections: 5,
  students: 55,
  contacts: 30,
  retire: 5,
};
const STEP_MESSAGE: Record<SchoolStep, string> = {
  teachers: 'Importing teachers…',
  sections: 'Importing classrooms…',
  students: 'Importing students…',
  contacts: 'Importing parents…',
  retire: 'Deactivating what the student-information system no longer lists…',
};

/** The local records of one school, as the import matches against them (read once per run and school). */
interface SchoolState {
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

const lower = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();

const loadSchool = async (jobId: string, schoolId: number): Promise<SchoolState> => {
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
const activeAfterImport = (existing: User | undefined) =>
  !existing || existing.active || existing.retiredBySis === true;

type Tally = (
  kind: SisRecordKind,
  outcome: 'created' | 'updated' | 'unchanged' | 'deactivated',
  n?: number,
) => void;

/** Teachers: staff accounts (role teacher) that sign in through Clever; no password of ours. */
const importTeachers = async (state: SchoolState, page: CleverUser[], tally: Tally) => {
  for (const person of page) {
    const names = namesFromSis(person.name);
    const email = person.email?.trim() || null;
    const existing =
      state.teachers.get(person.id) ?? (email ? state.teachersByEmail.get(lower(email)) : undefined);
    const wanted = {
      ...names,
      email,
      active: activeAfterImport(existing),
      ...(existing?.retiredBySis ? { retiredBySis: false } : {}),
    };
    if (existing) {
      if (!sameFields(existing, wanted)) {
        const changed = await users.updateProfile(db, existing, wanted);
        state.teachers.set(person.id, changed);
        tally('teachers', 'updated');
      } else tally('teachers', 'unchanged');
      if (existing.cleverId !== person.id) await linkTeacher(existing.id, person.id, state);
      continue;
    }
    const base = email ? normalize(email.split('@')[0]) : usernameFromName(names.firstName, names.lastName);
    const created = await createWithFreeUsername(
      {
        ...names,
        email,
        phone: null,
        role: 'teacher',
        active: true,
        schoolId: state.school.id,
        districtId: state.school.districtId,
        passwordHash: NO_PASSWORD,
      },
      base || 'teacher',
    );
    await linkTeacher(created.id, person.id, state);
    state.teachers.set(person.id, { ...created, cleverId: person.id });
    tally('teachers', 'created');
  }
};

const linkTeacher = async (userId: number, cleverId: string, state: SchoolState) => {
  try {
    await cleverLinks.linkUser(db, userId, cleverId);
  } catch (error) {
    // The Clever id belongs to an account of another school (a teacher who moved): left as it is.
    if (!(error instanceof ConflictError)) throw error;
    log('warn', 'clever teacher linked to another account', { userId, schoolId: state.school.id });
  }
};

/** Sections: classrooms (name, grade, teacher), made when missing if the import asks for it. */
const importSections = async (
  state: SchoolState,
  page: CleverSection[],
  createMissing: boolean,
  tally: Tally,
) => {
  const puts: Classroom[] = [];
  const fresh: Array<Omit<Classroom, 'id'>> = [];
  for (const section of page) {
    for (const student of section.students ?? []) state.sectionOf.set(student, section.id);
    const teacherClever = section.teacher ?? section.teachers?.[0];
    const wanted = {
      name: (section.name ?? '').trim().slice(0, 100) || 'Section',
      grade: gradeFromSis(section.grade),
      teacherId: (teacherClever ? state.teachers.get(teacherClever)?.id : undefined) ?? null,
      active: true,
      cleverId: section.id,
    };
    const existing = state.rooms.get(section.id) ?? state.roomsByName.get(lower(wanted.name));
    if (existing) {
      state.roomsByName.delete(lower(existing.name));
      if (!sameFields(existing, wanted)) {
        puts.push({ ...existing, ...wanted });
        tally('classrooms', 'updated');
      } else tally('classrooms', 'unchanged');
      state.rooms.set(section.id, { ...existing, ...wanted });
    } else if (createMissing) {
      fresh.push({ schoolId: state.school.id, ...wanted });
      tally('classrooms', 'created');
    }
  }
  const ids = await nextIds(db, 'classroom', fresh.length);
  const made = fresh.map((room, i) => ({ ...room, id: ids[i] as number }));
  for (const room of made) state.rooms.set(room.cleverId as string, room);
  await classrooms.putMany(db, [...puts, ...made]);
};

const importStudents = async (state: SchoolState, page: CleverUser[], tally: Tally) => {
  const puts: Student[] = [];
  const fresh: Array<Omit<Student, 'id'>> = [];
  for (const person of page) {
    const { firstName, lastName } = namesFromSis(person.name);
    const existing = state.students.get(person.id);
    const section = state.sectionOf.get(person.id);
    const room = section ? state.rooms.get(section) : undefined;
    const wanted = {
      firstName,
      lastName,
      grade: gradeFromSis(person.roles?.student?.grade),
      classroomId: room?.id ?? existing?.classroomId ?? null,
      active: true,
    };
    if (existing) {
      if (!sameFields(existing, wanted)) {
        const changed = { ...existing, ...wanted };
        puts.push(changed);
        state.students.set(person.id, changed);
        tally('students', 'updated');
      } else tally('students', 'unchanged');
    } else {
      fresh.push({
        schoolId: state.school.id,
        ...wanted,
        parentName: null,
        parentPhone: null,
        parentEmail: null,
        notes: null,
        cleverId: person.id,
      });
      tally('students', 'created');
    }
  }
  const ids = await nextIds(db, 'student', fresh.length);
  const made = fresh.map((student, i) => ({ ...student, id: ids[i] as number }));
  for (const student of made) state.students.set(student.cleverId as string, student);
  await students.putMany(db, [...puts, ...made]);
};

/** Contacts of the school's students: parent accounts (no password until the school gives one), linked to their children. */
const importContacts = async (state: SchoolState, page: CleverUser[], tally: Tally): Promise<string[]> => {
  const seen: string[] = [];
  const fresh: User[] = [];
  const rewrites: Array<{ user: User; passwordHash: string; before: User }> = [];
  for (const person of page) {
    const children = (person.roles?.contact?.student_relationships ?? []).flatMap((relation) => {
      const child = state.students.get(relation.student);
      return child?.active ? [child.id] : [];
    });
    if (children.length === 0) continue;
    seen.push(person.id);
    const names = namesFromSis(person.name);
    const email = person.email?.trim() || null;
    const existing =
      state.parents.get(person.id) ?? (email ? state.parentsByEmail.get(lower(email)) : undefined);
    const wanted = {
      ...names,
      email,
      phone: person.roles?.contact?.phone?.trim() || null,
      studentIds: [...new Set(children)],
      active: activeAfterImport(existing?.user),
      ...(existing?.user.retiredBySis ? { retiredBySis: false } : {}),
      cleverId: person.id,
    };
    if (existing) {
      if (!sameFields(existing.user, wanted)) {
        rewrites.push({
          user: { ...existing.user, ...wanted },
          passwordHash: existing.passwordHash,
          before: existing.user,
        });
        tally('parents', 'updated');
      } else tally('parents', 'unchanged');
      state.parents.set(person.id, { ...existing, user: { ...existing.user, ...wanted } });
      continue;
    }
    fresh.push({
      id: 0,
      ...wanted,
      username: parentUsername(wanted),
      role: 'parent',
      schoolId: state.school.id,
      districtId: null,
      madeBySchoolId: state.school.id,
    });
    tally('parents', 'created');
  }
  const ids = await nextIds(db, 'user', fresh.length);
  const made = fresh.map((user, i) => ({ ...user, id: ids[i] as number }));
  await users.createMany(db, made);
  await parentLinks.linkMany(
    db,
    made.flatMap((user) =>
      (user.studentIds ?? []).map((studentId) => ({
        parentId: user.id,
        schoolId: state.school.id,
        studentId,
      })),
    ),
  );
  for (const user of made) state.parents.set(user.cleverId as string, { user, passwordHash: NO_PASSWORD });
  await users.putMany(db, rewrites);
  for (const { user, before } of rewrites) {
    const had = [...(before.studentIds ?? [])].sort().join();
    if (had !== [...(user.studentIds ?? [])].sort().join())
      await parents.setChildren(db, before, state.school.id, user.studentIds ?? []);
  }
  return seen;
};

/** Deactivates the school's records from Clever that no page of this job saw. */
const retire = async (jobId: string, state: SchoolState, tally: Tally) => {
  const seenOf = async (step: SchoolStep) =>
    new Set((await importJobs.seen(db, jobId, `${state.school.id}#${step}`)).flatMap((page) => page.ids));
  const [teacherIds, sectionIds, studentIds, contactIds] = await Promise.all(
    (['teachers', 'sections', 'students', 'contacts'] as const).map(seenOf),
  );
  const gone = <T extends { active: boolean }>(map: Map<string, T>, seen: Set<string>) =>
    [...map].filter(([cleverId, record]) => record.active && !seen.has(cleverId)).map(([, record]) => record);

  const leavingStudents = gone(state.students, studentIds as Set<string>);
  await students.putMany(
    db,
    leavingStudents.map((student) => ({ ...student, active: false })),
  );
  tally('students', 'deactivated', leavingStudents.length);

  const leavingRooms = gone(state.rooms, sectionIds as Set<string>);
  await classrooms.putMany(
    db,
    leavingRooms.map((room) => ({ ...room, active: false })),
  );
  tally('classrooms', 'deactivated', leavingRooms.length);

  const leavingParents = [...state.parents]
    .filter(([cleverId, parent]) => parent.user.active && !(contactIds as Set<string>).has(cleverId))
    .map(([, parent]) => parent);
  await users.putMany(
    db,
    leavingParents.map(({ user, passwordHash }) => ({
      user: { ...user, active: false, retiredBySis: true },
      passwordHash,
    })),
  );
  for (const { user } of leavingParents) await endSignIns(user.id);
  tally('parents', 'deactivated', leavingParents.length);

  for (const teacher of gone(state.teachers, teacherIds as Set<string>)) {
    await users.updateProfile(db, teacher, { active: false, retiredBySis: true });
    await endSignIns(teacher.id);
    tally('teachers', 'deactivated');
  }
};

/**
 * The district record: made (a super admin's first import) or the one already
 * there (a district admin's own; its name is left as it is), linked to its Clever district.
 */
const importDistrict = async (stored: StoredImportJob<ImportRequest>, client: CleverClient) => {
  const request = stored.request;
  const clever = await client.get<CleverDistrict>(`/v3.0/districts/${request.cleverDistrictId}`);
  const name = clever.name.trim().slice(0, 100) || 'District';
  let localId = request.localDistrictId ?? (await cleverLinks.districtOf(db, clever.id)) ?? null;
  if (localId === null) {
    const made = await districts.create(db, { name, active: true, sandbox: false });
    localId = made.id;
    await cleverLinks.linkDistrict(db, localId, clever.id);
  } else {
    const local = await districts.get(db, localId);
    if (local?.cleverId !== clever.id) await cleverLinks.linkDistrict(db, localId, clever.id);
  }
  stored.job.districtId = localId;
  stored.request.localDistrictId = localId;
  return name;
};

/** One school record: made in the local district, or the one already imported (left as it is); linked to its Clever school. */
const importSchoolRecord = async (
  stored: StoredImportJob<ImportRequest>,
  client: CleverClient,
  tally: Tally,
) => {
  const request = stored.request;
  const clever = await client.get<CleverSchool>(`/v3.0/schools/${request.cleverSchoolId}`);
  const name = clever.name.trim().slice(0, 100) || 'School';
  const linked = await cleverLinks.schoolOf(db, clever.id);
  if (linked === undefined) {
    const made = await schools.create(db, {
      name,
      districtId: request.localDistrictId as number,
      active: true,
      sandbox: false,
    });
    await cleverLinks.linkSchool(db, made.id, clever.id);
    stored.job.schoolId = made.id;
    tally('schools', 'created');
  } else {
    stored.job.schoolId = linked;
    tally('schools', 'unchanged');
  }
  return name;
};

const percentOf = (checkpoint: ImportCheckpoint, schoolCount: number, fraction: number) => {
  if (schoolCount === 0) return 0;
  const index = SCHOOL_STEPS.indexOf(checkpoint.step as SchoolStep);
  const before = SCHOOL_STEPS.slice(0, Math.max(0, index)).reduce((sum, step) => sum + STEP_SHARE[step], 0);
  const within = index >= 0 ? STEP_SHARE[checkpoint.step as SchoolStep] * Math.min(1, fraction) : 0;
  return Math.min(99, Math.floor(((checkpoint.school + (before + within) / 100) / schoolCount) * 100));
};

/**
 * Runs a job until it is done, fails, or `remainingMs()` gets short (then it
 * saves its place and answers 'continue': the caller starts another run).
 * 'stopped': another run owns the job, or it is not running.
 */
export const runImportJob = async (
  jobId: string,
  runId: string,
  remainingMs: () => number,
  reserveMs: number,
): Promise<'done' | 'continue' | 'stopped'> => {
  const found = (await importJobs.get(db, jobId)) as StoredImportJob<ImportRequest> | undefined;
  if (!found || found.runId !== runId || found.job.status !== 'running') return 'stopped';
  const stored = found;
  const { job, request } = stored;
  const counts: SisCounts = job.counts ?? emptyCounts();
  job.counts = counts;
  const tally: Tally = (kind, outcome, n = 1) => {
    counts[kind][outcome] += n;
  };
  const save = async (patch: Partial<ImportJob>) => {
    Object.assign(job, patch, { updatedAt: new Date().toISOString() });
    if (!(await importJobs.save(db, stored as unknown as StoredImportJob))) throw new Superseded();
  };
  const started = Date.now();
  let client: CleverClient | undefined;
  try {
    client = new CleverClient(await tokenOf(request.cleverDistrictId));
    if (job.kind === 'district' || job.kind === 'sync') {
      if (stored.checkpoint.step === 'district') {
        const name = await importDistrict(stored, client);
        stored.checkpoint =
          job.kind === 'sync'
            ? { school: 0, step: 'teachers', after: null, page: 0 }
            : { ...stored.checkpoint, step: 'done' };
        await save({ message: `District ${name} connected`, percent: job.kind === 'sync' ? 1 : 100 });
      }
    }
    if (job.kind === 'school' && stored.checkpoint.step === 'school') {
      await importSchoolRecord(stored, client, tally);
      stored.checkpoint = { ...stored.checkpoint, step: 'done' };
    }
    let state: SchoolState | undefined;
    while (stored.checkpoint.step !== 'done' && stored.checkpoint.school < request.schools.length) {
      if (remainingMs() < reserveMs) {
        await save({});
        log('info', 'import job continues in another run', {
          jobId,
          ms: Date.now() - started,
          ...client.stats,
        });
        return 'continue';
      }
      const checkpoint = stored.checkpoint;
      const target = request.schools[checkpoint.school] as { cleverSchoolId: string; localSchoolId: number };
      if (!state || state.school.id !== target.localSchoolId)
        state = await loadSchool(jobId, target.localSchoolId);
      const step = checkpoint.step as SchoolStep;
      if ((checkpoint.counted ?? -1) < checkpoint.school) {
        // The school's students, counted first (10,000 a request) so the progress bar can say how far it is.
        job.total =
          (job.total ?? 0) +
          (await client.count(`/v3.0/schools/${target.cleverSchoolId}/users`, { role: 'student' }));
        checkpoint.counted = checkpoint.school;
      }
      const seenKey = `${target.localSchoolId}#${step}`;
      let next: string | null = null;
      if (step === 'retire') {
        await retire(jobId, state, tally);
      } else if (step === 'sections') {
        const page = await client.page<CleverSection>(
          `/v3.0/schools/${target.cleverSchoolId}/sections`,
          checkpoint.after,
        );
        await importSections(state, page.records, request.createMissingClassrooms, tally);
        await importJobs.putSeen(db, jobId, seenKey, checkpoint.page, {
          ids: page.records.map((s) => s.id),
          members: Object.fromEntries(page.records.map((s) => [s.id, s.students ?? []])),
        });
        next = page.next;
      } else if (step === 'contacts') {
        const page = await client.page<CleverUser>('/v3.0/users', checkpoint.after, { role: 'contact' });
        const seen = await importContacts(state, page.records, tally);
        await importJobs.putSeen(db, jobId, seenKey, checkpoint.page, { ids: seen });
        next = page.next;
      } else {
        const role = step === 'teachers' ? 'teacher' : 'student';
        const page = await client.page<CleverUser>(
          `/v3.0/schools/${target.cleverSchoolId}/users`,
          checkpoint.after,
          { role },
        );
        if (step === 'teachers') await importTeachers(state, page.records, tally);
        else {
          await importStudents(state, page.records, tally);
          job.done += page.records.length;
        }
        await importJobs.putSeen(db, jobId, seenKey, checkpoint.page, { ids: page.records.map((u) => u.id) });
        next = page.next;
      }
      if (next) {
        stored.checkpoint = { ...checkpoint, after: next, page: checkpoint.page + 1 };
      } else {
        const following = SCHOOL_STEPS[SCHOOL_STEPS.indexOf(step) + 1];
        const counted = checkpoint.counted;
        stored.checkpoint = following
          ? { school: checkpoint.school, step: following, after: null, page: 0, counted }
          : { school: checkpoint.school + 1, step: 'teachers', after: null, page: 0, counted };
        if (!following) state = undefined;
      }
      const nowStep = stored.checkpoint.step as SchoolStep;
      // Within a step: students by how many were read of the total; other steps by pages (a guess).
      const pages = stored.checkpoint.page / (stored.checkpoint.page + 2);
      const fraction = nowStep === 'students' && job.total ? job.done / job.total : pages;
      await save({
        message:
          nowStep === 'students' && job.done > 0 && job.total
            ? `Importing students: ${job.done.toLocaleString('en-US')} of ${job.total.toLocaleString('en-US')}`
            : (STEP_MESSAGE[nowStep] ?? job.message),
        percent: percentOf(stored.checkpoint, request.schools.length, fraction),
      });
    }
    const now = new Date().toISOString();
    await save({ status: 'succeeded', percent: 100, message: summarizeCounts(counts), finishedAt: now });
    log('info', 'import job done', { jobId, kind: job.kind, ms: Date.now() - started, ...client.stats });
    return 'done';
  } catch (error) {
    if (error instanceof Superseded) return 'stopped';
    const message =
      error instanceof CleverError || error instanceof ConflictError
        ? error.message
        : 'Something went wrong while importing';
    if (!(error instanceof CleverError)) log('error', 'import job failed', { jobId, error: String(error) });
    try {
      await save({
        status: 'failed',
        error: message,
        message: `Import stopped: ${message}. What was imported is kept; resume to finish.`,
        finishedAt: new Date().toISOString(),
      });
    } catch (saveError) {
      if (!(saveError instanceof Superseded)) throw saveError;
    }
    log('warn', 'import job stopped', { jobId, message, ...(client?.stats ?? {}) });
    return 'stopped';
  }
};

class Superseded extends Error {}
