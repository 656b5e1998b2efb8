import { AUTHORIZED_PICKUPS_READ_MAX, routes } from '@curbside/api';
import type { StudentAuthorizedPickups } from '@curbside/domain';
import { notifyManager, type QueryClient, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api';
import { useLiveEvent } from '../live/live';

/** A family's list changes rarely: a staff screen reads each child's once every few minutes. */
export const AUTHORIZED_PICKUPS_STALE_MS = 5 * 60_000;

type StudentKey = readonly ['authorized-pickups', 'student', number];
interface Asked {
  key: StudentKey;
  resolve: (list: StudentAuthorizedPickups) => void;
  reject: (error: unknown) => void;
}

/** The children whose lists were asked in this task, by the client that asked (one read for them all). */
let asked: { client: QueryClient; children: Map<number, Asked[]> } | null = null;

/** One child's list by its own route (a child asked alone, or left out of a read of several). */
const readAlone = (studentId: number, waiting: Asked[]) =>
  api(routes.studentAuthorizedPickups, { params: { id: studentId } }).then(
    (list) => {
      for (const one of waiting) one.resolve(list);
    },
    (error: unknown) => {
      for (const one of waiting) one.reject(error);
    },
  );

/**
 * Reads together the lists asked in one task (issue 57, h57r): the queue's cards ask one each
 * as they are drawn, in the same commit. Each answer is put in its child's cache in one batch
 * (one render of every line, not one per child) before each child's read resolves with it (its
 * data then unchanged: no render more). A child the read leaves out (not of the school, or no
 * longer active) is read by its own route, as before; a child asked alone too.
 */
const readAsked = async () => {
  if (!asked) return;
  const { client, children } = asked;
  asked = null;
  const ids = [...children.keys()];
  if (ids.length === 1) return readAlone(ids[0] as number, children.get(ids[0] as number) ?? []);
  for (let start = 0; start < ids.length; start += AUTHORIZED_PICKUPS_READ_MAX) {
    const part = ids.slice(start, start + AUTHORIZED_PICKUPS_READ_MAX);
    try {
      const { lists } = await api(routes.studentsAuthorizedPickups, {
        query: { studentIds: part.join(',') },
      });
      const found = new Map(lists.map(({ studentId, ...list }) => [studentId, list]));
      notifyManager.batch(() => {
        for (const [studentId, list] of found) {
          const key = children.get(studentId)?.[0]?.key;
          if (key) client.setQueryData(key, list);
        }
      });
      for (const studentId of part) {
        const waiting = children.get(studentId) ?? [];
        const list = found.get(studentId);
        if (!list) void readAlone(studentId, waiting);
        else for (const one of waiting) one.resolve(list);
      }
    } catch (error) {
      for (const studentId of part) for (const one of children.get(studentId) ?? []) one.reject(error);
    }
  }
};

const readWithOthers = (client: QueryClient, key: StudentKey) =>
  new Promise<StudentAuthorizedPickups>((resolve, reject) => {
    if (!asked || asked.client !== client) {
      void readAsked();
      asked = { client, children: new Map() };
      setTimeout(() => void readAsked(), 0);
    }
    const studentId = key[2];
    asked.children.set(studentId, [...(asked.children.get(studentId) ?? []), { key, resolve, reject }]);
  });

export const authorizedPickupQueries = {
  all: ['authorized-pickups'] as const,
  student: (studentId: number) =>
    queryOptions({
      queryKey: [...authorizedPickupQueries.all, 'student', studentId] as const,
      queryFn: ({ client, queryKey }) => readWithOthers(client, queryKey),
      staleTime: AUTHORIZED_PICKUPS_STALE_MS,
    }),
};

/**
 * Keeps every cached child's list current from the live connection (issue 50):
 * a parent's change reaches the open staff screens with the list as it is
 * now, and the cards and dialogs showing that child update at once.
 */
export const useAuthorizedPickupsLive = () => {
  const client = useQueryClient();
  useLiveEvent('AUTHORIZED_PICKUPS_CHANGED', ({ data: { schoolId: _, studentId, ...list } }) => {
    client.setQueryData(authorizedPickupQueries.student(studentId).queryKey, list);
  });
};

/**
 * Asks in one task for the lists of all these children (issue 57, h57x): a line's cards are drawn
 * a few at a time (`queue-list.tsx`), each commit's cards asking for their children's lists, which
 * would be one read a commit; asked here as the line's entries come, every child's list is in the
 * one read, and a card drawn later finds its child's list read or being read. A list read within
 * its `staleTime` is not read again.
 */
export const useAuthorizedPickupsAhead = (studentIds: readonly number[]) => {
  const client = useQueryClient();
  const ids = studentIds.join(',');
  useEffect(() => {
    if (!ids) return;
    for (const id of ids.split(',')) void client.prefetchQuery(authorizedPickupQueries.student(Number(id)));
  }, [client, ids]);
};
