import type { ClientMessage } from '@curbside/api';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLiveConnection, useLiveStatus } from '../live/live';
import { teacherKeys } from './teacher.cache';

/**
 * The teacher screen follows only its selected classrooms on the live
 * connection (issue 31, ADR 0018): it subscribes when the connection opens
 * (again after every reconnect: a new connection follows the whole line) and
 * whenever the selection changes, and gives the whole line back when it
 * leaves (the app keeps one connection for every screen). Once the server
 * says the subscription is in force, the teacher's lists are read again: an
 * event of a newly chosen classroom published before then went to no socket.
 * Each message carries its `order`: the server may handle two of them out of
 * order (the empty selection before the classrooms load, then the loaded one),
 * and drops the older.
 */
let sent = 0;

export const useClassroomSubscription = (classroomIds: readonly number[], enabled: boolean) => {
  const connection = useLiveConnection();
  const { state } = useLiveStatus();
  const queryClient = useQueryClient();
  const key = classroomIds.join(',');
  useEffect(
    () =>
      connection.subscribe((message) => {
        if (message.type === 'subscribed') void queryClient.invalidateQueries({ queryKey: teacherKeys.all });
      }),
    [connection, queryClient],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids are compared by their joined value
  useEffect(() => {
    if (!enabled || state !== 'open') return;
    const subscribe: ClientMessage = { action: 'subscribe', classroomIds: [...classroomIds], order: ++sent };
    connection.send(subscribe);
  }, [connection, state, key, enabled]);
  useEffect(() => {
    if (!enabled) return;
    return () => {
      const unsubscribe: ClientMessage = { action: 'unsubscribe', order: ++sent };
      connection.send(unsubscribe);
    };
  }, [connection, enabled]);
};
