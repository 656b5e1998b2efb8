import {
  addDays,
  type DismissalEvent,
  type DistrictDismissalRow,
  dateIn,
  daysBetween,
  instantIn,
  isCalendarDate,
  NotFoundError,
  type PickupSession,
  type ReportActor,
  type ReportPickup,
  type ReportSummary,
  type SessionListItem,
  type SessionReport,
  type StudentPickup,
  schoolClockOf,
  type User,
  ValidationError,
  wayText,
} from '@curbside/domain';
import {
  namedActor,
  pickupActors,
  pickupsFromEvents,
  pickupWaitSeconds,
  quantile,
  sessionReportCsvRows,
  sessionSummaryOf,
  summarize,
  unnamedActorIds,
  wayReleasesFromEvents,
  withActorNames,
} from '@curbside/domain/report';
import {
  classrooms,
  dismissalEvents,
  pickupSessions,
  recordSummaries,
  releases,
  type StoredSummary,
  students,
  users,
} from '@curbside/store';
import { db } from '../lib/context';
import { districtSchools } from './districts';
import { retentionDays } from './record';
import { schoolClock } from './school-clock';
import { canSeeSchool, readSchool } from './tenancy';
import { wayOptionsOf, waysHomeOn } from './ways-home';

/**
 * Reports read the dismissal's record: a session's events give its pickups
 * (who queued, released and completed each car, and when), its summary and
 * its CSV. Ended sessions keep their summary beside them once computed.
 */

const SESSIONS_PAGE = 20;
const EVENTS_PAGE = 500;

/** A session the user may see the record of: its school's staff, its district's admins, super admins; else 404. */
const visibleSession = async (user: User, id: number): Promise<PickupSession> => {
  const session = await pickupSessions.get(db, id);
  if (!session) throw new NotFoundError('Session not found');
  if (user.schoolId !== session.schoolId) {
    // readSchool answers 404 for a school outside the user's district.
    const school = await readSchool(user, session.schoolId).catch(() => undefined);
    if (!school || !canSeeSchool(user, school) || user.schoolId !== null) {
      throw new NotFoundError('Session not found');
    }
  }
  return session;
};

/**
 * The names of the people among `actors` recorded without one (events made
 * before names were kept): user id → their name now (one BatchGetItem; none
 * when every actor has its name).
 */
const namesOf = async (actors: Iterable<ReportActor | null>): Promise<Map<number, string>> => {
  const ids = unnamedActorIds(actors);
  if (ids.length === 0) return new Map();
  return new Map((await users.getMany(db, ids)).map((user) => [user.id, user.name]));
};

const reportOf = async (session: PickupSession, events: readonly DismissalEvent[]) => {
  const rooms = await classrooms.listBySchool(db, session.schoolId);
  const roomNames = new Map(rooms.map((room) => [room.id, room.name]));
  const found = pickupsFromEvents(
    events,
    (id) => (id === null ? null : (roomNames.get(id) ?? null)),
    session.type === 'afternoon_pickup',
  );
  const names = await namesOf(found.flatMap(pickupActors));
  const pickups = found.map((pickup) => withActorNames(pickup, names));
  // Walkers, programs' children, riders of a bus that never came: released by way home outside any visit (issue 52).
  const wayReleases = wayReleasesFromEvents(events, pickups, (id) =>
    id === null ? null : (roomNames.get(id) ?? null),
  );
  return { pickups, wayReleases, summary: summarize(events, pickups, wayReleases) };
};

const storedOf = (
  session: PickupSession,
  report: { summary: ReportSummary; pickups: ReportPickup[] },
): StoredSummary => ({
  sessionId: session.id,
  summary: report.summary,
  waits: report.pickups
    .map(pickupWaitSeconds)
    .filter((wait): wait is number => wait !== null)
    .sort((a, b) => a - b),
});

/**
 * The summaries of some sessions: kept ones read by key; the others computed
 * from their events (and kept when the session has ended).
 */
const summariesOf = async (sessions: readonly PickupSession[]): Promise<Map<number, StoredSummary>> => {
  const kept = await recordSummaries.ofSessions(
    db,
    sessions.filter((session) => session.status === 'ended').map((session) => session.id),
  );
  await Promise.all(
    sessions
      .filter((session) => !kept.has(session.id))
      .map(async (session) => {
        const report = await reportOf(session, await dismissalEvents.ofSession(db, session.id));
        const stored = storedOf(session, report);
        kept.set(session.id, stored);
        if (session.status === 'ended') {
          await recordSummaries.keep(db, stored, await retentionDays(session.schoolId), session.endTime);
        }
      }),
  );
  return kept;
};

/** `GET /api/sessions`: the school's sessions, newest first, paged, each with its summary. */
export const listSessionsWithSummary = async (
  user: User,
  cursor?: string,
): Promise<{ items: SessionListItem[]; next: string | null }> => {
  if (user.schoolId === null) return { items: [], next: null };
  const page = await pickupSessions.pageBySchool(db, user.schoolId, {
    limit: SESSIONS_PAGE,
    ...(cursor ? { cursor } : {}),
  });
  const summaries = await summariesOf(page.items);
  return {
    items: page.items.map((session) => ({
      ...session,
      summary: sessionSummaryOf((summaries.get(session.id) as StoredSummary).summary),
    })),
    next: page.next,
  };
};

/** `GET /api/sessions/{id}/report`. */
export const sessionReport = async (user: User, id: number): Promise<SessionReport> => {
  const session = await visibleSession(user, id);
  const report = await reportOf(session, await dismissalEvents.ofSession(db, id));
  return { session, ...report };
};

/**
 * `GET /api/sessions/{id}/report.csv`: one row per student (cells that a
 * spreadsheet would run are escaped), times in the school's time zone (named
 * in the headers).
 */
export const sessionReportCsv = async (
  user: User,
  id: number,
): Promise<{ csv: string; filename: string }> => {
  const { session, pickups, wayReleases } = await sessionReport(user, id);
  // The CSV writer (papaparse) is loaded by the export alone, not at the function's cold start.
  const [{ toCsv }, { timeZone }] = await Promise.all([
    import('@curbside/domain/csv'),
    schoolClock(session.schoolId),
  ]);
  return {
    csv: toCsv(sessionReportCsvRows(pickups, timeZone, wayReleases)),
    // The session's day in the school's calendar (its time zone, issue 51).
    filename: `session-${session.id}-${dateIn(timeZone, Date.parse(session.startTime))}.csv`,
  };
};

/** `GET /api/sessions/{id}/events`: the raw record, oldest first, paged. */
export const sessionEvents = async (user: User, id: number, cursor?: string) => {
  await visibleSession(user, id);
  return dismissalEvents.page(db, id, { limit: EVENTS_PAGE, ...(cursor ? { cursor } : {}) });
};

/** `GET /api/students/{id}/pickups`: a student's last pickups, newest first (their school's staff). */
export const studentPickups = async (user: User, studentId: number): Promise<StudentPickup[]> => {
  if (user.schoolId === null) throw new NotFoundError('Student not found');
  const [student, clock] = await Promise.all([
    students.get(db, user.schoolId, studentId),
    schoolClock(user.schoolId),
  ]);
  if (!student) throw new NotFoundError('Student not found');
  const marks = await releases.ofStudent(db, user.schoolId, student);
  const sessions = new Map<number, PickupSession | undefined>();
  await Promise.all(
    [...new Set(marks.map((mark) => mark.sessionId))].map(async (sessionId) => {
      sessions.set(sessionId, await pickupSessions.get(db, sessionId));
    }),
  );
  const dayOf = (mark: (typeof marks)[number]) =>
    dateIn(clock.timeZone, Date.parse(sessions.get(mark.sessionId)?.startTime ?? mark.pickedUpAt));
  const days = [...new Set(marks.map(dayOf))];
  // The way home of each day (issue 52): one read of the plan and the day's changes per day shown.
  const [names, options, ways] = await Promise.all([
    namesOf(marks.flatMap((mark) => [mark.releasedBy, mark.completedBy])),
    days.length > 0 ? wayOptionsOf(user.schoolId) : undefined,
    Promise.all(
      days.map(
        async (day) => [day, (await waysHomeOn(user.schoolId as number, day, [studentId]))[0]] as const,
      ),
    ),
  ]);
  const wayOn = new Map(ways);
  return marks.map((mark) => {
    const session = sessions.get(mark.sessionId);
    const way = wayOn.get(dayOf(mark));
    return {
      ...(way && options ? { wayHome: wayText(way.way, options) } : {}),
      sessionId: mark.sessionId,
      sessionName: session?.name ?? '',
      // The day of the school's calendar (its time zone, issue 51).
      date: dateIn(clock.timeZone, Date.parse(session?.startTime ?? mark.pickedUpAt)),
      entryId: mark.entryId ?? '',
      vehicleNumber: mark.vehicleNumber ?? '',
      vehicleType: mark.vehicleType ?? 'car',
      releasedAt: mark.releasedAt,
      releasedBy: namedActor(mark.releasedBy, names),
      completedWithoutRelease: mark.completedWithoutRelease,
      pickedUpAt: mark.pickedUpAt,
      completedBy: namedActor(mark.completedBy, names),
    };
  });
};

const MAX_RANGE_DAYS = 366;

/**
 * `GET /api/districts/{id}/dismissals?from=&to=`: per school, the sessions
 * that started in the date range (from and to inclusive, days of each
 * school's own calendar: its time zone, issue 51) with their cars, students
 * picked up, and the median and p90 wait over all their pickups, from the record.
 */
export const districtDismissals = async (
  user: User,
  districtId: number,
  range: { from: string; to: string },
): Promise<DistrictDismissalRow[]> => {
  if (!isCalendarDate(range.from) || !isCalendarDate(range.to) || range.to < range.from) {
    throw new ValidationError('Choose a start date on or before the end date');
  }
  if (daysBetween(range.from, range.to) + 1 > MAX_RANGE_DAYS) {
    throw new ValidationError(`Choose a range of at most ${MAX_RANGE_DAYS} days`);
  }
  const list = await districtSchools(user, districtId);
  return Promise.all(
    list.map(async (school): Promise<DistrictDismissalRow> => {
      const { timeZone } = schoolClockOf(school);
      const from = new Date(instantIn(timeZone, range.from)).toISOString();
      const to = new Date(instantIn(timeZone, addDays(range.to, 1))).toISOString();
      const sessions = await pickupSessions.startedBetween(db, school.id, from, to);
      const summaries = [...(await summariesOf(sessions)).values()];
      const waits = summaries.flatMap((stored) => stored.waits).sort((a, b) => a - b);
      return {
        schoolId: school.id,
        schoolName: school.name,
        sessions: sessions.length,
        cars: summaries.reduce((sum, stored) => sum + stored.summary.cars + stored.summary.buses, 0),
        studentsPickedUp: summaries.reduce((sum, stored) => sum + stored.summary.studentsPickedUp, 0),
        medianWaitSeconds: quantile(waits, 0.5),
        p90WaitSeconds: quantile(waits, 0.9),
      };
    }),
  );
};

/** A school's sessions that started between two instants, each with its summary (the data export). */
export const sessionsWithSummaries = async (schoolId: number, from: string, to: string) => {
  const sessions = await pickupSessions.startedBetween(db, schoolId, from, to);
  const summaries = await summariesOf(sessions);
  return sessions.map((session) => {
    const stored = summaries.get(session.id);
    return { ...session, summary: stored ? sessionSummaryOf(stored.summary) : null };
  });
};
