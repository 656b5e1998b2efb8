import {
  addDays,
  dateIn,
  daysBetween,
  exportRange,
  isCalendarDate,
  parentContactOf,
  personOf,
  type SchoolExport,
  schoolClockOf,
  schoolExportFiles,
  type User,
  ValidationError,
} from '@curbside/domain';
import { classrooms, dismissalPlans, parents, programs, students, users, vehicles } from '@curbside/store';
import { db } from '../lib/context';
import { sessionsWithSummaries } from './reports';
import { readSchool } from './tenancy';
import { wayOptionsOf } from './ways-home';

/** The most days of dismissals one export covers. */
const MAX_EXPORT_DAYS = 366;

/**
 * `GET /api/schools/{id}/export?from=&to=` (Export Data, issue 50 item 13):
 * the school's rosters (students with their way home, classrooms, teachers,
 * parents, vehicles, programs) and its dismissals between two days of its
 * calendar (the last year by default: each session with its summary), as
 * CSV files. School admins their school; district admins their district's;
 * super admins any. Another tenant's school: 404.
 */
export const schoolExport = async (
  user: User,
  schoolId: number,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<SchoolExport> => {
  const school = await readSchool(user, schoolId);
  const { timeZone } = schoolClockOf(school);
  const today = dateIn(timeZone);
  const to = range.to ?? today;
  const from = range.from ?? addDays(to, -(MAX_EXPORT_DAYS - 1));
  if (!isCalendarDate(from) || !isCalendarDate(to) || to < from) {
    throw new ValidationError('Choose a start date on or before the end date');
  }
  if (daysBetween(from, to) + 1 > MAX_EXPORT_DAYS) {
    throw new ValidationError(`Choose a range of at most ${MAX_EXPORT_DAYS} days`);
  }
  const window = exportRange(timeZone, from, to);
  const [roster, rooms, teachers, parentList, fleet, programList, plans, options, sessions] =
    await Promise.all([
      students.listBySchool(db, school.id),
      classrooms.listAll(db, school.id),
      users.teachersOfSchool(db, school.id),
      parents.listAll(db, school.id),
      vehicles.listAll(db, school.id),
      programs.ofSchool(db, school.id),
      dismissalPlans.ofSchool(db, school.id),
      wayOptionsOf(school.id),
      sessionsWithSummaries(school.id, window.from, window.to),
    ]);
  const files = schoolExportFiles({
    timeZone,
    students: roster,
    classrooms: rooms,
    teachers: teachers.map(personOf),
    parents: parentList.map(({ user: parent }) => ({
      ...personOf(parent),
      ...parentContactOf(parent),
      studentIds: parent.studentIds ?? [],
    })),
    vehicles: fleet,
    programs: programList,
    plans: new Map([...plans].map(([id, stored]) => [id, stored.plan])),
    options,
    sessions,
  });
  // The CSV writer (papaparse) is loaded by the export alone, not at the function's cold start.
  const { toCsv } = await import('@curbside/domain/csv');
  return {
    schoolId: school.id,
    schoolName: school.name,
    timeZone,
    from,
    to,
    files: files.map((file) => ({ name: file.name, csv: toCsv(file.rows) })),
  };
};
