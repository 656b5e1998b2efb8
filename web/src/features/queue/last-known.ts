import { onlineManager, type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { idbRecord } from '../../lib/device-store';

/**
 * The car-line screens' last-known data, kept on the device (in the
 * outbox's IndexedDB store) so a tablet reloaded without a connection shows
 * its last queue, marked "Offline — last updated 2 min ago", instead of
 * nothing. Only the signed-in user, the session, the queue, the batches,
 * the release marks and the school are kept; signing out empties it.
 */
interface Kept {
  key: QueryKey;
  data: unknown;
  at: number;
}

const KEPT = ['auth', 'sessions', 'queue', 'batches', 'releases', 'schools'];
const ME: QueryKey = ['auth', 'me'];
const record = () => idbRecord<Kept[]>('last-known');

/** What to keep now: nothing once signed out, no answer yet (undefined) while nobody is known. */
export const keptQueries = (queryClient: QueryClient): Kept[] | undefined => {
  const me = queryClient.getQueryData(ME);
  if (me === undefined) return undefined;
  if (me === null) return [];
  return queryClient
    .getQueryCache()
    .findAll()
    .filter((query) => query.state.status === 'success' && KEPT.includes(String(query.queryKey[0])))
    .map((query) => ({ key: query.queryKey, data: query.state.data, at: query.state.dataUpdatedAt }));
};

/** Keeps the car-line data on the device a second after each change (until the returned stop). */
export const keepLastKnown = (queryClient: QueryClient) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    timer = undefined;
    const kept = keptQueries(queryClient);
    if (kept)
      record()
        .write(kept)
        .catch(() => {});
  };
  const stop = queryClient.getQueryCache().subscribe(() => {
    timer ??= setTimeout(save, 1_000);
  });
  return () => {
    stop();
    clearTimeout(timer);
  };
};

/**
 * Puts the kept data into an empty cache, with the time each was read (the
 * header says how old it is), and marks it stale: each screen asks the
 * server again as soon as there is a connection.
 */
export const restoreLastKnown = async (queryClient: QueryClient) => {
  const kept = await record().read();
  for (const { key, data, at } of kept ?? []) {
    if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, data, { updatedAt: at });
  }
  await queryClient.invalidateQueries({ refetchType: 'none' });
};

/**
 * A staff screen opened without a connection shows its last-known car line
 * (marked offline): once per page, before the signed-in user is known. Query
 * takes a page for online until the browser says otherwise, so it is told:
 * the screens' reads wait, and run again on their own when the connection is
 * back (its `online` event).
 */
export const useLastKnownWhenOffline = () => {
  const queryClient = useQueryClient();
  useState(() => {
    if (navigator.onLine) return;
    onlineManager.setOnline(false);
    void restoreLastKnown(queryClient).catch(() => {});
  });
};
