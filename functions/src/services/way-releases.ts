import { channels } from '@curbside/api';
import {
  actorName,
  type BusRiders,
  type Classroom,
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type PlanEntry,
  type ProgramCheckIn,
  type ProgramList,
  type ReleasedWay,
  releasedBy,
  type StudentSummary,
  type User,
  type WayRelease,
  type WayReleaseAnswer,
} from '@curbside/domain';
import {
  classrooms,
  parentLinks,
  programCheckIns,
  programs,
  releases,
  students,
  vehicles,
} from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { publishToChannel, publishToSession, publishToStaff } from './live-events';
import { recordingBy } from './record';
import { schoolToday } from './school-clock';
import { activeSessionOf } from './scope';
import { ownSchoolId } from './tenancy';
import { visitCalls } from './way-calls';
import { waysHomeOn } from './ways-home';

/**
 * The whole dismissal by way home (issue 52, docs/adr/0022): a teacher
 * releases the walkers of their classrooms, a bus's riders or a program's
 * children in one press; a program's list and check-ins; a bus's riders of a
 * day. Every release is a mark of the session and an event of its record in
 * one transaction (`releases.releaseByWay`), told to the staff screens of the
 * concerned classrooms (numbered for the whole line) and to each child's parents.
 */

/** The school's bus with this id (404 for a car, another school's vehicle or none). */
const busOf = async (schoolId: number, vehicleId: number) => {
  const bus = await vehicles.get(db, schoolId, vehicleId);
  if (bus?.type !== 'bus' || !bus) throw new NotFoundError('Bus not found');
  return bus;
};

/** The school's program with this id (404 otherwise). */
const programOf = async (schoolId: number, programId: number) => {
  const program = await programs.get(db, schoolId, programId);
  if (!program) throw new NotFoundError('Program not found');
  return program;
};

/** What a release is called in the record and on the screens: `Walker`, `Bus B3`, `Kids Club`. */
const releasedWayOf = async (schoolId: number, release: WayRelease): Promise<ReleasedWay> => {
  switch (release.mode) {
    case 'walker':
      return { ...release, name: 'Walker' };
    case 'bus':
      return { ...release, name: `Bus B${(await busOf(schoolId, release.vehicleId)).number}` };
    case 'program':
      return { ...release, name: (await programOf(schoolId, release.programId)).name };
  }
};

/** The school's classrooms with these ids (404 naming none when one is not the school's). */
const classroomsOf = async (schoolId: number, ids: readonly number[]): Promise<Classroom[]> => {
  const rooms = await classrooms.listBySchool(db, schoolId);
  const wanted = [...new Set(ids)].map((id) => rooms.find((room) => room.id === id));
  if (wanted.some((room) => room === undefined)) throw new NotFoundError('Classroom not found');
  return wanted as Classroom[];
};

/** Tells each released child's parents that they were released (as a teacher's release does). */
const tellFamilies = async (
  schoolId: number,
  sessionId: number,
  released: readonly StudentSummary[],
  releasedAt: string,
) => {
  await Promise.all(
    released.map(async (student) => {
      const parents = await parentLinks.parentsOf(db, schoolId, student.id);
      await Promise.all(
        parents.map((parentId) =>
          publishToChannel(channels.parent(parentId), {
            type: 'STUDENT_STATUS_UPDATE',
            data: { studentId: student.id, sessionId, status: 'released', releasedAt },
          }),
        ),
      );
    }),
  );
};

/**
 * `POST /api/walkers/release`, `POST /api/buses/{id}/release`,
 * `POST /api/programs/{id}/release` (`{ classroomIds }`): releases, in the
 * school's running session, every student of those classrooms whose way home
 * today is that way (walking, that bus, that program) and who was not
 * released yet. An absent child is never released; a second press releases
 * nobody twice (`{ released: [] }`).
 */
export const releaseByWay = async (
  user: User,
  release: WayRelease,
  classroomIds: readonly number[],
): Promise<WayReleaseAnswer> => {
  const schoolId = ownSchoolId(user);
  const [session, rooms, today, way] = await Promise.all([
    activeSessionOf(schoolId),
    classroomsOf(schoolId, classroomIds),
    schoolToday(schoolId),
    releasedWayOf(schoolId, release),
  ]);
  if (!session || !isSessionRunning(session))
    throw new ConflictError('There is no active session to release students in');
  if (session.type === 'morning_dropoff')
    throw new ConflictError('Students are released in an afternoon pickup, not a morning drop-off');
  const roster = (
    await Promise.all(rooms.map((room) => students.listByClassroom(db, schoolId, room.id)))
  ).flat();
  const ways = await waysHomeOn(
    schoolId,
    today,
    roster.map((student) => student.id),
  );
  const going = roster.filter((_, i) => releasedBy((ways[i] as PlanEntry).way, release));
  const marks = await releases.ofStudents(db, session.id, going);
  const pending = going.filter((student) => !marks.has(student.id));
  if (pending.length === 0) return { released: [] };
  const record = await recordingBy(user, schoolId);
  const releasedAt = new Date().toISOString();
  const released = await releases.releaseByWay(
    db,
    { schoolId, sessionId: session.id },
    pending,
    way,
    record,
    releasedAt,
  );
  if (released.length > 0) {
    await Promise.all([
      publishToSession(
        schoolId,
        session.id,
        {
          type: 'STUDENTS_RELEASED',
          data: {
            sessionId: session.id,
            way,
            releasedAt,
            releasedBy: actorName(record.actor),
            students: released.map(({ id, classroomId }) => ({ id, classroomId })),
          },
        },
        released.map((student) => student.classroomId),
      ),
      tellFamilies(schoolId, session.id, released, releasedAt).catch((error: Error) =>
        log('warn', 'parents not told of a release', { error: error.message }),
      ),
    ]);
  }
  return { released: released.map((student) => student.id) };
};

/** The classroom names of some students. */
const roomNames = async (schoolId: number) =>
  new Map((await classrooms.listBySchool(db, schoolId)).map((room) => [room.id, room.name]));

/**
 * `GET /api/buses/{id}/riders?date=`: the students whose way home that
 * day (default: the school's today) is this bus, and its usual riders who go
 * another way that day (with why).
 */
export const busRiders = async (user: User, vehicleId: number, date?: string): Promise<BusRiders> => {
  const schoolId = ownSchoolId(user);
  const [bus, day, names] = await Promise.all([
    busOf(schoolId, vehicleId),
    date ?? schoolToday(schoolId),
    roomNames(schoolId),
  ]);
  const calls = await visitCalls(schoolId, day, bus);
  return {
    date: day,
    vehicleId: bus.id,
    number: bus.number,
    riders: calls.called.map((student) => ({
      ...student,
      classroom: student.classroomId === null ? null : (names.get(student.classroomId) ?? null),
    })),
    notRiding: calls.notCalled,
  };
};

/**
 * `GET /api/programs/{id}/students?date=`: the students whose way home that
 * day (default: the school's today) is this program, with, for today, who
 * sent them (the running session's release marks) and who checked them in.
 */
export const programList = async (user: User, programId: number, date?: string): Promise<ProgramList> => {
  const schoolId = ownSchoolId(user);
  const [program, today, roster, names, session] = await Promise.all([
    programOf(schoolId, programId),
    schoolToday(schoolId),
    students.listBySchool(db, schoolId),
    roomNames(schoolId),
    activeSessionOf(schoolId),
  ]);
  const day = date ?? today;
  const ways = await waysHomeOn(
    schoolId,
    day,
    roster.map((student) => student.id),
  );
  const listed = roster
    .map((student, i) => ({ student, entry: ways[i] }))
    .filter(({ entry }) => entry?.way.mode === 'program' && entry.way.programId === programId);
  const isToday = day === today;
  const [marks, checkIns] = await Promise.all([
    isToday && session
      ? releases.ofStudents(
          db,
          session.id,
          listed.map(({ student }) => student),
        )
      : new Map(),
    programCheckIns.ofDay(db, schoolId, programId, day),
  ]);
  return {
    date: day,
    program: { id: program.id, name: program.name, location: program.location },
    students: listed
      .map(({ student, entry }) => {
        const mark = marks.get(student.id);
        const checkIn = checkIns.get(student.id);
        return {
          id: student.id,
          firstName: student.firstName,
          lastName: student.lastName,
          grade: student.grade,
          classroomId: student.classroomId,
          classroom: student.classroomId === null ? null : (names.get(student.classroomId) ?? null),
          releasedAt: mark?.releasedAt ?? null,
          releasedBy: mark?.releasedBy ? actorName(mark.releasedBy) : null,
          checkedInAt: checkIn?.checkedInAt ?? null,
          checkedInBy: checkIn ? actorName(checkIn.checkedInBy) : null,
          ...(entry?.source === 'change' ? { note: entry.note ?? '' } : {}),
        };
      })
      .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName)),
  };
};

/**
 * `PUT` / `DELETE /api/students/{id}/program-check-in`: a program's staff
 * check a child in at the program their way home today names (once: a second
 * tap keeps the first check-in), or take a wrong tap back; each in the
 * child's way-home record. A child who goes to no program today: 404. Told to
 * the school's staff screens (`PROGRAM_CHECK_IN`).
 */
export const checkIn = async (user: User, studentId: number, undo = false): Promise<ProgramCheckIn> => {
  const schoolId = ownSchoolId(user);
  const today = await schoolToday(schoolId);
  const [[way], [student], record] = await Promise.all([
    waysHomeOn(schoolId, today, [studentId]),
    students.getMany(db, schoolId, [studentId]),
    recordingBy(user, schoolId),
  ]);
  if (!student || way?.way.mode !== 'program')
    throw new NotFoundError('That student does not go to a program today');
  const programId = way.way.programId;
  const program = await programOf(schoolId, programId);
  const write = {
    schoolId,
    program: { id: program.id, name: program.name },
    date: today,
    studentId,
    actor: record.actor,
    retentionDays: record.retentionDays,
  };
  let answer: ProgramCheckIn;
  if (undo) {
    await programCheckIns.undo(db, write);
    answer = { programId, studentId, date: today, checkedInAt: null, checkedInBy: null };
  } else {
    const made = await programCheckIns.checkIn(db, write);
    const mark = made ?? (await programCheckIns.ofDay(db, schoolId, programId, today)).get(studentId);
    answer = {
      programId,
      studentId,
      date: today,
      checkedInAt: mark?.checkedInAt ?? null,
      checkedInBy: mark ? actorName(mark.checkedInBy) : null,
    };
  }
  await publishToStaff(schoolId, { type: 'PROGRAM_CHECK_IN', data: answer });
  return answer;
};
