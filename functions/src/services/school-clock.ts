import { dateIn, NotFoundError, type School, schoolClockOf } from '@curbside/domain';
import { schools } from '@curbside/store';
import { db } from '../lib/context';
import { recentSchool } from './record';

/**
 * The school's clock (issue 51): its zone, cutoff and approval rule as in
 * force, and its "today". Every service that needs a school's day reads it
 * here, from the school's own record (one GetItem), never from the server's
 * zone or a constant.
 */
export interface SchoolClock {
  schoolId: number;
  timeZone: string;
  changeCutoff: string;
  changeApproval: 'auto' | 'office';
  /** The school's date now, `YYYY-MM-DD`. */
  today: string;
}

export const clockOf = (
  school: Pick<School, 'id' | 'timeZone' | 'changeCutoff' | 'changeApproval'>,
  now = Date.now(),
): SchoolClock => {
  const clock = schoolClockOf(school);
  return { schoolId: school.id, ...clock, today: dateIn(clock.timeZone, now) };
};

/** A school's clock by its id (the school must exist). */
export const schoolClock = async (schoolId: number, now = Date.now()): Promise<SchoolClock> => {
  const school = await schools.get(db, schoolId);
  if (!school) throw new NotFoundError('School not found');
  return clockOf(school, now);
};

/**
 * The school's date now, from its record as read in the last minute
 * (`recentSchool`): for the car line's calls, where a school's zone does not
 * change between two cars.
 */
export const schoolToday = async (schoolId: number, now = Date.now()): Promise<string> => {
  const school = await recentSchool(schoolId);
  if (!school) throw new NotFoundError('School not found');
  return clockOf(school, now).today;
};
