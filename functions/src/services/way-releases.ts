import {
  actorName,
  type BusRiders,
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type PlanEntry,
  type ProgramCheckIn,
  type ProgramList,
  type ReleasedWay,
  releasedBy,
  type User,
  type WayRelease,
  type WayReleaseAnswer,
} from '@curbside/domain';
import {
  classrooms,
  dismissalChanges,
  dismissalPlans,
  type KeyedRead,
  keyedDayChanges,
  keyedReads,
  keyedStudentsNamingVehicle,
  programCheckIns,
  programs,
  releases,
  students,
  vehicles,
} from '@curbside/store';
import { knownSchoolOf, type SignInRead } from '../lib/auth';
import { db } from '../lib/context';
import { answerInTheChange } from '../lib/idempotency';
import { publishToSession, publishToStaff } from './live-events';
import { recordingBy } from './record';
import { schoolToday } from './school-clock';
import { activeSessionOf, knownSessionRead } from './scope';
import { ownSchoolId } from './tenancy';
import { visitCalls } from './way-calls';
import { waysFrom, waysHomeOn } from './ways-home';

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

/** A release's way as it reads it: the bus's number or the program (undefined when the school has none with that id). */
type WayNamed = { number: string } | { name: string } | undefined;

/**
 * The children a bus release can concern, by key (issue 54): those the bus's
 * riders item lists (a superset: their plans decide) and those a change kept
 * in its upcoming item names (their own upcoming items decide). `undefined`:
 * every child of the classrooms, where the bus has no riders item (no plan
 * named it since the riders were kept, or their migration has not run yet)
 * or its upcoming item overflowed.
 */
const busCandidatesRead = (schoolId: number, vehicleId: number): KeyedRead<Set<number> | undefined> =>
  keyedReads.map(
    keyedReads.all(
      dismissalPlans.keyedBusRidersKept(schoolId, vehicleId),
      keyedStudentsNamingVehicle(schoolId, vehicleId),
    ),
    ([riders, named]) =>
      riders === undefined || named === 'overflow' ? undefined : new Set([...riders.keys(), ...named]),
  );

/**
 * A release's first keyed reads: the school's known running session, the
 * classrooms, the bus or program, and (a bus's) the children it can concern.
 */
const firstWayReleaseRead = (schoolId: number, release: WayRelease, classroomIds: readonly number[]) =>
  keyedReads.all(
    knownSessionRead(schoolId),
    classrooms.keyedMany(schoolId, classroomIds),
    release.mode === 'bus'
      ? keyedReads.map(vehicles.keyedBus(schoolId, release.vehicleId), (bus): WayNamed => bus)
      : release.mode === 'program'
        ? keyedReads.map(programs.keyed(schoolId, release.programId), (program): WayNamed => program)
        : keyedReads.none<WayNamed>({ name: 'Walker' }),
    release.mode === 'bus'
      ? busCandidatesRead(schoolId, release.vehicleId)
      : keyedReads.none<Set<number> | undefined>(undefined),
  );

/**
 * What a release by way home reads first (issue 54), at once: its first
 * keyed reads (`keyed`: in the caller's sign-in read when the route starts
 * them early, else a BatchGetItem of their own), the students of the
 * classrooms (one Query each: an id not of the school's finds none, and is
 * refused by the keyed read) and the school's today.
 */
export const startWayReleaseReads = (
  schoolId: number,
  release: WayRelease,
  classroomIds: readonly number[],
  keyed: <T>(read: KeyedRead<T>) => Promise<T> = (read) => keyedReads.run(db, read),
) => {
  const reads = {
    schoolId,
    release,
    classroomIds,
    first: keyed(firstWayReleaseRead(schoolId, release, classroomIds)),
    roster: Promise.all(
      [...new Set(classroomIds)].map((id) => students.listByClassroom(db, schoolId, id)),
    ).then((rooms) => rooms.flat()),
    today: schoolToday(schoolId),
  };
  // Reads of a request refused before its service runs are never awaited.
  for (const read of [reads.first, reads.roster, reads.today]) read.catch(() => undefined);
  return reads;
};

/** A release's reads, started beside the sign-in (`http/releaseBusRiders.ts` and the others) or by the service. */
export type WayReleaseReads = ReturnType<typeof startWayReleaseReads>;

/**
 * A release route's early reads (`EarlyReads`): its first reads in the
 * caller's sign-in read (one BatchGetItem) and the classrooms' students
 * beside it, for a staff member this instance signed in at a school
 * (`releaseByWay` uses them when the signed-in user is of that school).
 */
export const wayReleaseEarly =
  <I>(wayOf: (input: I) => WayRelease) =>
  (
    userId: number,
    input: I & { body: { classroomIds: number[] } },
    signIn: SignInRead,
  ): Promise<WayReleaseReads> | undefined => {
    const schoolId = knownSchoolOf(userId);
    if (schoolId === undefined) return undefined;
    return Promise.resolve(startWayReleaseReads(schoolId, wayOf(input), input.body.classroomIds, signIn));
  };

/** A release's answer: the students it released. */
const answerOf = (released: readonly { id: number }[]): WayReleaseAnswer => ({
  released: released.map((student) => student.id),
});

const sameRelease = (a: WayRelease, b: WayRelease) =>
  a.mode === b.mode &&
  (a.mode !== 'bus' || (b.mode === 'bus' && a.vehicleId === b.vehicleId)) &&
  (a.mode !== 'program' || (b.mode === 'program' && a.programId === b.programId));

/** The reads started for this very release, or started now. */
const readsOf = (
  schoolId: number,
  release: WayRelease,
  classroomIds: readonly number[],
  started: WayReleaseReads | undefined,
): WayReleaseReads =>
  started?.schoolId === schoolId &&
  sameRelease(started.release, release) &&
  started.classroomIds.length === classroomIds.length &&
  started.classroomIds.every((id, i) => id === classroomIds[i])
    ? started
    : startWayReleaseReads(schoolId, release, classroomIds);

/** What a release is called in the record and on the screens: `Walker`, `Bus B3`, `Kids Club` (404 when the school has no such bus or program). */
const releasedWayOf = (release: WayRelease, named: WayNamed): ReleasedWay => {
  if (named === undefined)
    throw new NotFoundError(release.mode === 'bus' ? 'Bus not found' : 'Program not found');
  return 'number' in named ? { ...release, name: `Bus B${named.number}` } : { ...release, name: named.name };
};

/**
 * `POST /api/walkers/release`, `POST /api/buses/{id}/release`,
 * `POST /api/programs/{id}/release` (`{ classroomIds }`): releases, in the
 * school's running session, every student of those classrooms whose way home
 * today is that way (walking, that bus, that program) and who was not
 * released yet. An absent child is never released; a second press releases
 * nobody twice (`{ released: [] }`).
 *
 * Its calls do not grow with the children (issue 54, ADR 0027 "Bulk releases
 * and the tail"): the sign-in with the session, the classrooms and the bus or
 * program (one BatchGetItem; a bus's riders item and its upcoming item too)
 * beside the classrooms' students (a Query each); the plans, release marks and
 * upcoming items (their day's changes by key: three keys a child, 100 keys a
 * BatchGetItem, all at once, eventually consistent) of the children it can
 * concern: a bus's riders and those its changes name, every child of the
 * classrooms for walkers and programs (read units that grow with those
 * children, never with the school's changes); the marks with their event and the key's
 * claim (one TransactWriteItems per 99 children), the claim keeping the answer
 * where the release is one transaction (ADR 0027 "(h54k)": no UpdateItem of
 * the data table after it, which at the bell waited behind every other
 * press's transaction); the event's number and the school's connections
 * together. Staff and each child's parents hear of it from that one read of
 * the connections.
 */
export const releaseByWay = async (
  user: User,
  release: WayRelease,
  classroomIds: readonly number[],
  early?: Promise<WayReleaseReads | undefined>,
): Promise<WayReleaseAnswer> => {
  const schoolId = ownSchoolId(user);
  // The record's retention (the school's, kept a minute) meanwhile.
  const recording = recordingBy(user, schoolId);
  recording.catch(() => undefined);
  const reads = readsOf(schoolId, release, classroomIds, await early?.catch(() => undefined));
  const [[known, rooms, named, candidates], inRooms, today] = await Promise.all([
    // Should the sign-in's read have failed, the release reads on its own.
    reads.first.catch(() => keyedReads.run(db, firstWayReleaseRead(schoolId, release, classroomIds))),
    reads.roster,
    reads.today,
  ]);
  const way = releasedWayOf(release, named);
  if (rooms.length < new Set(classroomIds).size) throw new NotFoundError('Classroom not found');
  const session = await activeSessionOf(schoolId, known);
  if (!session || !isSessionRunning(session))
    throw new ConflictError('There is no active session to release students in');
  if (session.type === 'morning_dropoff')
    throw new ConflictError('Students are released in an afternoon pickup, not a morning drop-off');
  // A bus's: only the children its riders item or its changes name (the others cannot be going that way).
  const roster = candidates === undefined ? inRooms : inRooms.filter(({ id }) => candidates.has(id));
  const ids = roster.map((student) => student.id);
  const [plans, marks, kept] = await keyedReads.run(
    db,
    keyedReads.all(
      dismissalPlans.keyedOfStudents(schoolId, ids),
      // Eventually consistent, as the plans (half the read units): a child released meanwhile fails
      // their mark's condition in the transaction and is left out (`releases.releaseByWay`).
      releases.keyedReleaseMarks(session.id, roster, { consistent: false }),
      // The day's changes of these children by key (their upcoming items, kept in each change's
      // transaction), not the school's every change of the day; by Query should one overflow.
      keyedDayChanges(schoolId, today, { studentIds: ids }),
    ),
  );
  const changes = kept === 'overflow' ? await dismissalChanges.mayFallOnFor(db, schoolId, today, ids) : kept;
  const ways = waysFrom(today, ids, plans, changes);
  const pending = roster.filter(
    (student, i) => releasedBy((ways[i] as PlanEntry).way, release) && !marks.has(student.id),
  );
  if (pending.length === 0) return { released: [] };
  const record = await recording;
  const releasedAt = new Date().toISOString();
  const released = await releases.releaseByWay(
    db,
    { schoolId, sessionId: session.id },
    pending,
    way,
    record,
    releasedAt,
    // The answer kept in the key's claim by the release's own transaction: no UpdateItem on the
    // data table after it, behind the bell's other transactions (ADR 0027 "(h54k)").
    { beforeCommit: (releasing) => answerInTheChange(200, answerOf(releasing)) },
  );
  if (released.length > 0) {
    // Beside the answer's keeping (ADR 0027); each child's parents hear of it from the same read of the connections.
    await publishToSession(
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
    );
  }
  return answerOf(released);
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
