import { type QueueEntry, type ReleaseMark, unreleasedError, unreleasedStudentsOf } from '@curbside/domain';
import { releases } from '@curbside/store';
import { db } from '../lib/context';

/**
 * Before a car or a batch is completed (issue 50): the session's release
 * marks of its children, read by key. While one of them was not released by
 * a teacher, the completion is refused (409 `{ message, unreleased }`) unless
 * the staff confirmed it ("Complete anyway"); the marks then go into the
 * completion's record, so each child is recorded as released (when, by whom)
 * or as completed without a teacher's release.
 */
export const releasesBeforeCompletion = async (
  sessionId: number,
  entries: readonly Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>[],
  confirmed: boolean,
): Promise<Map<number, ReleaseMark>> => {
  const riders = entries.flatMap((entry) => entry.students);
  const marks = riders.length === 0 ? new Map() : await releases.ofStudents(db, sessionId, riders);
  const unreleased = unreleasedStudentsOf(entries, marks);
  if (unreleased.length > 0 && !confirmed) throw unreleasedError(unreleased);
  return marks;
};
