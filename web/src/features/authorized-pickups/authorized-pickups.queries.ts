import { AUTHORIZED_PICKUPS_READ_MAX, routes } from '@curbside/api';
import type { StudentAuthorizedPickups } from '@curbside/domain';
import {
  hashKey,
  notifyManager,
  type QueryClient,
  queryOptions,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api';
import { authorizedPickupsKey } from './authorized-pickups.live';

/** A family's list changes rarely: a staff screen reads each child's once every few minutes. */
export const AUTHORIZED_PICKUPS_STALE_MS = 5 * 60_000;

type StudentKey = ReturnType<typeof authorizedPickupsKey>;
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

/** Puts a child's list in the read of this task's lists (`readAsked`), the read set off with the task's first. */
const askWithOthers = (client: QueryClient, one: Asked) => {
  if (!asked || asked.client !== client) {
    void readAsked();
    asked = { client, children: new Map() };
    setTimeout(() => void readAsked(), 0);
  }
  const studentId = one.key[2];
  asked.children.set(studentId, [...(asked.children.get(studentId) ?? []), one]);
};

/**
 * The lists read ahead of their cards (`useAuthorizedPickupsAhead`), by child, until answered: a
 * card drawn meanwhile takes its child's from that read instead of asking again.
 */
const readAhead = new Map<number, Promise<StudentAuthorizedPickups>>();

const readWithOthers = (client: QueryClient, key: StudentKey) =>
  readAhead.get(key[2]) ??
  new Promise<StudentAuthorizedPickups>((resolve, reject) => askWithOthers(client, { key, resolve, reject }));

export const authorizedPickupQueries = {
  student: (studentId: number) =>
    queryOptions({
      queryKey: authorizedPickupsKey(studentId),
      queryFn: ({ client, queryKey }) => readWithOthers(client, queryKey),
      staleTime: AUTHORIZED_PICKUPS_STALE_MS,
    }),
};

/**
 * Asks in one task for the lists of all these children (issue 57, h57x): a line's cards are drawn
 * a few at a time (`queue-list.tsx`), each commit's cards asking for their children's lists, which
 * would be one read a commit; asked here as the line's entries come, every child's list is in the
 * one read (put in each child's cache as it comes), and a card drawn later finds its child's list
 * read or being read. A list read within its `staleTime`, or being read, is not read again. No
 * query is made here (`prefetchQuery` made one a child, each with its timers and notices: 13–15 ms
 * for nine children in Lighthouse's trace, in one task): each card makes its own as it is drawn.
 */
export const useAuthorizedPickupsAhead = (studentIds: readonly number[]) => {
  const client = useQueryClient();
  const ids = studentIds.join(',');
  useEffect(() => {
    if (!ids) return;
    for (const studentId of ids.split(',').map(Number)) {
      const { queryKey } = authorizedPickupQueries.student(studentId);
      // Read, being read, or read within its `staleTime`: as `prefetchQuery` decides.
      const query = client.getQueryCache().get(hashKey(queryKey));
      const current =
        query !== undefined &&
        (query.state.fetchStatus === 'fetching' || !query.isStaleByTime(AUTHORIZED_PICKUPS_STALE_MS));
      if (current || readAhead.has(studentId)) continue;
      const list = new Promise<StudentAuthorizedPickups>((resolve, reject) =>
        askWithOthers(client, { key: queryKey, resolve, reject }),
      );
      readAhead.set(studentId, list);
      // A card that took it has its answer (or its error, and tries again as any read). A child the
      // read left out was read alone: its list is put in the cache here (the others' were with the read).
      list.then(
        (answer) => {
          readAhead.delete(studentId);
          if (client.getQueryData(queryKey) === undefined) client.setQueryData(queryKey, answer);
        },
        () => readAhead.delete(studentId),
      );
    }
  }, [client, ids]);
};
