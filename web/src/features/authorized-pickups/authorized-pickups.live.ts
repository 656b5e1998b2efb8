import type { StudentAuthorizedPickups } from '@curbside/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvent } from '../live/live';

/** A child's list in the cache (`authorizedPickupQueries.student` reads it). */
export const authorizedPickupsKey = (studentId: number) =>
  ['authorized-pickups', 'student', studentId] as const;

/**
 * Keeps every cached child's list current from the live connection (issue 50):
 * a parent's change reaches the open staff screens with the list as it is
 * now, and the cards and dialogs showing that child update at once. Apart from the
 * lists' reads (`authorized-pickups.queries.ts`), which the staff screens load with what they
 * draw after their first paint: the shell, which holds this, is loaded before it (issue 57).
 */
export const useAuthorizedPickupsLive = () => {
  const client = useQueryClient();
  useLiveEvent('AUTHORIZED_PICKUPS_CHANGED', ({ data: { schoolId: _, studentId, ...list } }) => {
    client.setQueryData<StudentAuthorizedPickups>(authorizedPickupsKey(studentId), list);
  });
};
