import {
  actorOf,
  confirmsErase,
  type DismissalEvent,
  type EraseStudentInput,
  NotFoundError,
  namesStudent,
  parentContactOf,
  personOf,
  retentionDaysOf,
  type School,
  type Student,
  type StudentErased,
  type StudentExport,
  scrubStudent,
  type User,
  ValidationError,
} from '@curbside/domain';
import {
  arrivals,
  authorizedPickups,
  classrooms,
  dismissalChanges,
  dismissalEvents,
  dismissalPlans,
  parentInvites,
  parentLinks,
  pickupCodes,
  pickupSessions,
  queue,
  recordSummaries,
  releases,
  students,
  users,
  vehicles,
  wayEvents,
} from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { endSignIns } from './auth';
import { stopHearingOf } from './live-connections';
import { rosterSchool } from './roster/scope';

/**
 * A family's data, kept and erased as the law says (issue 55): a student's
 * export for a parent's request to inspect, and their erasure (a student who
 * left). School admins their school, district admins their district's (with
 * `?schoolId=`), super admins any; another tenant's student is 404.
 */

/** Sessions read at once while looking through a school's record. */
const SESSIONS_AT_ONCE = 8;

const studentOf = async (school: School, id: number): Promise<Student> => {
  const student = await students.get(db, school.id, id);
  if (!student) throw new NotFoundError('Student not found');
  return student;
};

/** Every session of the school the record still keeps (newest first, all pages). */
const sessionIdsOf = async (schoolId: number): Promise<number[]> => {
  const ids: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await pickupSessions.pageBySchool(db, schoolId, {
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    ids.push(...page.items.map((session) => session.id));
    cursor = page.next ?? undefined;
  } while (cursor);
  return ids;
};

/** Runs `work` on each session, a few at a time. */
const eachSession = async <T>(
  sessionIds: readonly number[],
  work: (id: number) => Promise<T>,
): Promise<T[]> => {
  const out: T[] = [];
  for (let i = 0; i < sessionIds.length; i += SESSIONS_AT_ONCE) {
    out.push(...(await Promise.all(sessionIds.slice(i, i + SESSIONS_AT_ONCE).map(work))));
  }
  return out;
};

/** `GET /api/students/{id}/export`: everything Curbside holds about the student, as JSON. */
export const exportStudent = async (
  user: User,
  id: number,
  schoolId: number | undefined,
): Promise<StudentExport> => {
  const school = await rosterSchool(user, schoolId, 'read');
  const student = await studentOf(school, id);
  const [parentIds, classroom, fleet, pickups, code, invites, plans, changes, ways, sessionIds] =
    await Promise.all([
      parentLinks.parentsOf(db, school.id, id),
      student.classroomId === null ? undefined : classrooms.get(db, school.id, student.classroomId),
      vehicles.listAll(db, school.id),
      authorizedPickups.listByStudent(db, school.id, id),
      pickupCodes.currentFor(db, school.id, id),
      parentInvites.listByStudent(db, school.id, id),
      dismissalPlans.ofStudents(db, school.id, [id]),
      dismissalChanges.ofStudent(db, school.id, id),
      wayEvents.ofStudent(db, school.id, id, 10_000),
      sessionIdsOf(school.id),
    ]);
  const parents = await users.getMany(db, parentIds);
  const events: DismissalEvent[] = (
    await eachSession(sessionIds, (sessionId) => dismissalEvents.ofSession(db, sessionId))
  )
    .flat()
    .filter((event) => namesStudent(event, id))
    .sort((a, b) => a.at.localeCompare(b.at));
  return {
    exportedAt: new Date().toISOString(),
    school: { id: school.id, name: school.name },
    student,
    classroom: classroom ? { id: classroom.id, name: classroom.name, grade: classroom.grade } : null,
    parents: parents.map((parent) => ({ ...personOf(parent), ...parentContactOf(parent) })),
    vehicles: fleet
      .filter((vehicle) => vehicle.studentIds.includes(id))
      .map(({ schoolId: _, ...vehicle }) => vehicle),
    authorizedPickups: pickups,
    pickupCode: code ?? null,
    invites,
    plan: plans.get(id)?.plan ?? null,
    changes,
    wayEvents: ways,
    dismissalEvents: events,
  };
};

/**
 * `POST /api/students/{id}/erase` with `{ confirm: "<first and last name>" }`:
 * removes the student's personal data everywhere (roster, plan and changes,
 * authorized adults, code, invites, links, the vehicles' lists), and names
 * them "Erased student #id" in the record (its events, the visits, the
 * release marks, the kept summaries), which keeps that a release happened,
 * not to whom. Their parents lose the link; a parent left with no child is
 * deactivated and signed out. The erasure is an event of the student's
 * record of ways home, with its actor.
 */
export const eraseStudent = async (
  user: User,
  id: number,
  schoolId: number | undefined,
  input: EraseStudentInput,
): Promise<StudentErased> => {
  const school = await rosterSchool(user, schoolId, 'write');
  const student = await studentOf(school, id);
  if (!confirmsErase(student, input.confirm)) {
    throw new ValidationError("Type the student's first and last name exactly to erase them");
  }
  const scrub = (item: Record<string, unknown>) => scrubStudent(item, student);
  const [sessionIds, rooms, parentIds, fleet] = await Promise.all([
    sessionIdsOf(school.id),
    classrooms.listAll(db, school.id),
    parentLinks.parentsOf(db, school.id, id),
    vehicles.listAll(db, school.id),
  ]);
  // The record first: the names leave the events, visits, marks and summaries.
  const rewritten = await eachSession(sessionIds, async (sessionId) => {
    const [events, visits, announced] = await Promise.all([
      dismissalEvents.rewriteSession(db, sessionId, scrub),
      queue.rewriteSession(db, sessionId, scrub),
      arrivals.rewriteSession(db, sessionId, scrub),
    ]);
    return events + visits + announced;
  });
  const marks = await releases.rewriteOfStudent(
    db,
    student,
    { sessionIds, classroomIds: [...rooms.map((room) => room.id), null] },
    scrub,
  );
  const summaries = await recordSummaries.rewrite(db, sessionIds, scrub);
  // Then what is theirs alone.
  await Promise.all([
    dismissalPlans.erase(db, school.id, id),
    dismissalChanges.eraseOfStudent(db, school.id, id),
    wayEvents.eraseOfStudent(db, school.id, id),
    authorizedPickups.eraseOfStudent(db, school.id, id),
    pickupCodes.eraseOfStudent(db, school.id, id),
    parentInvites.eraseOfStudent(db, school.id, id),
    ...fleet
      .filter((vehicle) => vehicle.studentIds.includes(id))
      .map((vehicle) =>
        vehicles.setStudents(
          db,
          vehicle,
          vehicle.studentIds.filter((other) => other !== id),
        ),
      ),
  ]);
  let deactivated = 0;
  for (const parent of await users.getMany(db, parentIds)) {
    await parentLinks.unlinkStudent(db, parent, school.id, id);
    await stopHearingOf(parent.id, school.id, [id]);
    const left = await parentLinks.childrenOf(db, parent.id);
    if (left.length === 0 && parent.active) {
      await users.updateProfile(db, parent, { active: false });
      await endSignIns(parent.id);
      deactivated += 1;
    }
  }
  await students.erase(db, school.id, id);
  const erasedAt = new Date().toISOString();
  await wayEvents.add(
    db,
    { schoolId: school.id, studentId: id, at: erasedAt, actor: actorOf(user), kind: 'student_erased' },
    retentionDaysOf(school),
  );
  const recordItemsRewritten = rewritten.reduce((sum, n) => sum + n, 0) + marks + summaries;
  log('info', 'student erased', { studentId: id, parents: parentIds.length, recordItemsRewritten });
  return {
    studentId: id,
    erasedAt,
    parentsUnlinked: parentIds.length,
    parentsDeactivated: deactivated,
    recordItemsRewritten,
  };
};
