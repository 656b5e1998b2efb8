import {
  ARRIVAL_MESSAGES,
  ARRIVAL_THROTTLE,
  type Arrival,
  type ArrivalInput,
  type ArrivalOpening,
  arrivalSettingsOf,
  ConflictError,
  ForbiddenError,
  familyCar,
  fenceCheck,
  isSessionRunning,
  NotFoundError,
  OutsideGeofenceError,
  outsideFenceMessage,
  type ParentArrival,
  type PickupSession,
  parentArrivalOf,
  type School,
  type Student,
  TooManyRequestsError,
  type User,
  ValidationError,
} from '@curbside/domain';
import { arrivals, parentLinks, queue, schools, students, throttle, vehicles } from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { publishToClassrooms } from './live-events';
import { queueAnnouncedCar } from './queue';
import { recordingBy } from './record';
import { clockOf } from './school-clock';
import { activeSessionOf, sessionOfSchool } from './scope';
import { waysHomeOn } from './ways-home';

/**
 * Families announce their arrival (issue 53, docs/adr/0023-arrivals.md). A
 * parent's position is checked against the school's geofence and dropped:
 * nothing here stores or sends it. An announcement goes only to the school's
 * staff (the whole-line screens and the children's classrooms), never to a
 * parent; the parent is answered their own and nothing else.
 */

/** The parent's linked children's ids by school (one Query of their links). */
const childIdsBySchool = async (parentId: number): Promise<Map<number, number[]>> => {
  const bySchool = new Map<number, number[]>();
  for (const { schoolId, studentId } of await parentLinks.childrenOf(db, parentId)) {
    bySchool.set(schoolId, [...(bySchool.get(schoolId) ?? []), studentId]);
  }
  return bySchool;
};

/** The school the announcement is for: the one named, else the family's only school. */
const schoolOfAnnouncement = (bySchool: Map<number, number[]>, named: number | undefined): number => {
  if (named !== undefined) {
    if (!bySchool.has(named)) throw new NotFoundError(ARRIVAL_MESSAGES.noChild);
    return named;
  }
  const [only, ...others] = [...bySchool.keys()];
  if (only === undefined) throw new NotFoundError(ARRIVAL_MESSAGES.noChild);
  if (others.length > 0) {
    throw new ValidationError(ARRIVAL_MESSAGES.whichSchool, [
      { path: 'schoolId', message: ARRIVAL_MESSAGES.whichSchool },
    ]);
  }
  return only;
};

/** The school's settings and running session, checked in the order a parent is told. */
const openFor = (school: School | undefined, session: PickupSession | undefined) => {
  if (!school) throw new NotFoundError(ARRIVAL_MESSAGES.noChild);
  const settings = arrivalSettingsOf(school.arrival);
  if (settings.mode === 'off') throw new ForbiddenError(ARRIVAL_MESSAGES.off);
  if (!session || !isSessionRunning(session)) throw new ConflictError(ARRIVAL_MESSAGES.noSession);
  return { settings, session };
};

/** Each active child of the list, in the list's order. */
const activeOf = (list: readonly Student[]) => list.filter((student) => student.active);

/**
 * `POST /api/parent/arrivals`: "I'm on my way" or "I'm here" for the parent's
 * children at one school, during its running session. One arrival per parent
 * and session: announcing again updates it. With `auto`, a "here" queues the
 * family's car once, the parent as the record's actor.
 */
export const announceArrival = async (
  parent: User,
  input: ArrivalInput,
): Promise<{ arrival: ParentArrival }> => {
  const bySchool = await childIdsBySchool(parent.id);
  const schoolId = schoolOfAnnouncement(bySchool, input.schoolId);
  const ids = bySchool.get(schoolId) ?? [];
  const [school, session, children] = await Promise.all([
    schools.get(db, schoolId),
    activeSessionOf(schoolId),
    students.getMany(db, schoolId, ids).then(activeOf),
  ]);
  if (children.length === 0) throw new NotFoundError(ARRIVAL_MESSAGES.noChild);
  const { settings, session: running } = openFor(school, session);
  const fence = settings.geofence;
  if (input.state === 'here' && fence) {
    if (!input.position) {
      throw new ValidationError(ARRIVAL_MESSAGES.needsPosition, [
        { path: 'position', message: ARRIVAL_MESSAGES.needsPosition },
      ]);
    }
    // The position is used here and dropped: it is in no write, no log line and no event.
    const { inside, distanceM } = fenceCheck(fence, input.position);
    if (!inside) throw new OutsideGeofenceError(outsideFenceMessage(distanceM), distanceM);
  }
  const turn = await throttle.reserve(
    db,
    [{ scope: `arrival#parent#${parent.id}`, limit: ARRIVAL_THROTTLE.limit }],
    ARRIVAL_THROTTLE.windowMs,
  );
  if (!turn.allowed) throw new TooManyRequestsError(ARRIVAL_MESSAGES.tooMany);
  // Today's way home (after today's changes) says who rides in the car; the school's cars say which one.
  const today = clockOf(school as School).today;
  const [ways, fleet, before] = await Promise.all([
    waysHomeOn(
      schoolId,
      today,
      children.map((child) => child.id),
    ),
    vehicles.listBySchool(db, schoolId),
    arrivals.get(db, running.id, parent.id),
  ]);
  const riders = children.filter((child) =>
    ways.some((entry) => entry.studentId === child.id && entry.way.mode === 'car'),
  );
  if (riders.length === 0) throw new ConflictError(ARRIVAL_MESSAGES.noCarRider);
  const car = familyCar(
    riders.map((child) => child.id),
    fleet,
    { name: parent.name, phone: parent.phone ?? null },
  );
  let arrival = await arrivals.announce(db, {
    sessionId: running.id,
    schoolId,
    parentId: parent.id,
    parentName: parent.name,
    state: input.state,
    students: riders.map(({ id, firstName, lastName, classroomId }) => ({
      id,
      firstName,
      lastName,
      classroomId,
    })),
    vehicleNumber: car?.number ?? null,
    vehicleType: car ? 'car' : null,
    at: new Date().toISOString(),
    sessionEndsAt: running.endTime,
  });
  const queueNow =
    settings.mode === 'auto' && input.state === 'here' && car && !before?.entryId && !arrival.entryId;
  if (queueNow) arrival = await queueForArrival(parent, running, car, arrival);
  await publishToClassrooms(
    schoolId,
    { type: 'ARRIVAL_ANNOUNCED', data: { arrival } },
    arrival.students.map((student) => student.classroomId),
  );
  return { arrival: parentArrivalOf(arrival) };
};

/**
 * Queues the family's car for an announcement (`auto`) and notes the visit
 * on the arrival. A car already in the queue (staff typed it, or another
 * announcement of the family queued it) is not queued again: its visit is
 * noted instead. Two announcements racing note one visit.
 */
const queueForArrival = async (
  parent: User,
  session: PickupSession,
  car: Parameters<typeof queueAnnouncedCar>[1],
  arrival: Arrival,
): Promise<Arrival> => {
  let entryId: string;
  let queuedBy: Arrival['queuedBy'] = 'announcement';
  try {
    const entry = await queueAnnouncedCar(session, car, await recordingBy(parent, session.schoolId));
    entryId = entry.id;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const queued = await queue.activeOf(db, session.id, car.type, car.number);
    if (!queued) {
      log('warn', 'announced car not queued', { sessionId: session.id, error: error.message });
      return arrival;
    }
    entryId = queued.id;
    queuedBy = queued.queuedBy ?? null;
  }
  return (
    (await arrivals.noteQueued(db, session.id, parent.id, entryId, queuedBy)) ??
    (await arrivals.get(db, session.id, parent.id)) ??
    arrival
  );
};

/**
 * `GET /api/parent/arrivals`: the family's schools where announcing is open
 * now (a session runs and the school takes announcements), each with the
 * parent's own arrival in that session. Nothing of another family.
 */
export const arrivalOpenings = async (parent: User): Promise<{ schools: ArrivalOpening[] }> => {
  const bySchool = await childIdsBySchool(parent.id);
  const found = await Promise.all(
    [...bySchool.keys()].map(async (schoolId): Promise<ArrivalOpening | null> => {
      const [school, session] = await Promise.all([schools.get(db, schoolId), activeSessionOf(schoolId)]);
      const settings = arrivalSettingsOf(school?.arrival);
      if (!school || settings.mode === 'off' || !session || !isSessionRunning(session)) return null;
      const arrival = await arrivals.get(db, session.id, parent.id);
      return {
        schoolId,
        schoolName: school.name,
        sessionId: session.id,
        mode: settings.mode,
        needsPosition: settings.geofence !== null,
        arrival: arrival ? parentArrivalOf(arrival) : null,
      };
    }),
  );
  return { schools: found.filter((opening): opening is ArrivalOpening => opening !== null) };
};

/**
 * `GET /api/arrivals?sessionId=`: a session of the caller's school, its
 * arrivals newest first, for a screen that opens or reconnects; none once
 * the session no longer runs (arrivals expire with it).
 */
export const sessionArrivals = async (user: User, sessionId: number): Promise<{ arrivals: Arrival[] }> => {
  const [session, list] = await Promise.all([
    sessionOfSchool(user, sessionId),
    arrivals.ofSession(db, sessionId),
  ]);
  return { arrivals: isSessionRunning(session) ? list : [] };
};
