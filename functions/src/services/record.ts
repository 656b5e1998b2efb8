import { actorOf, type DismissalActor, type Recording, retentionDaysOf, type User } from '@curbside/domain';
import { schools } from '@curbside/store';
import { db } from '../lib/context';

/** A school's retention changes rarely: read it at most once a minute per process. */
const RETENTION_CACHE_MS = 60_000;
const cache = new Map<number, { days: number; until: number }>();

/** How long the school keeps its dismissal record (its setting, else 400 days). */
export const retentionDays = async (schoolId: number): Promise<number> => {
  const now = Date.now();
  const hit = cache.get(schoolId);
  if (hit && hit.until > now) return hit.days;
  const days = retentionDaysOf(await schools.get(db, schoolId));
  cache.set(schoolId, { days, until: now + RETENTION_CACHE_MS });
  return days;
};

/** The record's actor and retention for a change made in a school. */
export const recording = async (actor: DismissalActor, schoolId: number): Promise<Recording> => ({
  actor,
  retentionDays: await retentionDays(schoolId),
});

/** The same for a signed-in user's change. */
export const recordingBy = (user: User, schoolId: number): Promise<Recording> =>
  recording(actorOf(user), schoolId);
