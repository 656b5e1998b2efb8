import {
  actorOf,
  type DismissalActor,
  type Recording,
  retentionDaysOf,
  type School,
  type User,
} from '@curbside/domain';
import { schools } from '@curbside/store';
import { db } from '../lib/context';
import { remember } from '../lib/remember';

/**
 * A school's record settings and clock change rarely: its record is read at
 * most once a minute per process (ADR 0020, a fact kept briefly), and again
 * at once after this process saved its settings (`forgetSchool`).
 */
const SCHOOL_KEPT_MS = 60_000;
const SCHOOLS_KEPT = 500;
const cache = new Map<number, { school: Promise<School | undefined>; until: number }>();

/** The school's record as read in the last minute (its retention, zone and cutoff). */
export const recentSchool = (schoolId: number): Promise<School | undefined> => {
  const now = Date.now();
  const hit = cache.get(schoolId);
  if (hit && hit.until > now) return hit.school;
  const school = schools.get(db, schoolId);
  remember(cache, schoolId, { school, until: now + SCHOOL_KEPT_MS }, SCHOOLS_KEPT);
  school.catch(() => cache.delete(schoolId));
  return school;
};

/**
 * A school's record a route has just read itself (beside its sign-in): the
 * readers of the next minute take it, rather than reading it again on their own
 * (a GetItem, and a round trip where the change waits for its record).
 */
export const noteSchool = (school: School) => {
  remember(
    cache,
    school.id,
    { school: Promise.resolve(school), until: Date.now() + SCHOOL_KEPT_MS },
    SCHOOLS_KEPT,
  );
};

/** After this process changed a school's settings: its next reader reads them again. */
export const forgetSchool = (schoolId: number) => {
  cache.delete(schoolId);
};

/** How long the school keeps its dismissal record (its setting, else 400 days). */
export const retentionDays = async (schoolId: number): Promise<number> =>
  retentionDaysOf(await recentSchool(schoolId));

/** The record's actor and retention for a change made in a school. */
export const recording = async (actor: DismissalActor, schoolId: number): Promise<Recording> => ({
  actor,
  retentionDays: await retentionDays(schoolId),
});

/** The same for a signed-in user's change. */
export const recordingBy = (user: User, schoolId: number): Promise<Recording> =>
  recording(actorOf(user), schoolId);
