import {
  ForbiddenError,
  NotFoundError,
  type SchoolSettings,
  type SchoolSettingsInput,
  schoolSettingsOf,
  type User,
} from '@curbside/domain';
import { schools } from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { publishToStaff } from './live-events';
import { forgetSchool } from './record';
import { isReadOnly, READ_ONLY_MESSAGE } from './roster/scope';
import { readSchool } from './tenancy';

/**
 * A school's settings (#32): its school admins, the district admins of its
 * district and super admins read and change them; another school's answer
 * 404 (its existence is not revealed); a sandboxed school's are read-only.
 */
export const settingsOf = async (user: User, schoolId: number): Promise<SchoolSettings> =>
  schoolSettingsOf(await readSchool(user, schoolId));

/**
 * Saves the settings and tells the school's staff screens at once
 * (`SCHOOL_SETTINGS_CHANGED`): the next batch takes the new capacities, a
 * batch made before keeps its own.
 */
export const saveSettings = async (
  user: User,
  schoolId: number,
  settings: SchoolSettingsInput,
): Promise<SchoolSettings> => {
  const school = await readSchool(user, schoolId);
  if (await isReadOnly(user, school)) throw new ForbiddenError(READ_ONLY_MESSAGE);
  const saved = await schools.updateSettings(db, schoolId, settings);
  if (!saved) throw new NotFoundError('School not found');
  forgetSchool(schoolId);
  const now = schoolSettingsOf(saved);
  try {
    await publishToStaff(schoolId, { type: 'SCHOOL_SETTINGS_CHANGED', data: { schoolId, settings: now } });
  } catch (error) {
    // Saved: screens see the new values on their next read.
    log('warn', 'school settings not told', { schoolId, error: String(error) });
  }
  return now;
};
