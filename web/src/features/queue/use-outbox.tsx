import { type ResponseOf, type RouteName, routes } from '@curbside/api';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { type ApiInput, apiKeyed } from '../../lib/api';
import { idempotencyKey, isNetworkFailure } from '../../lib/idempotency';
import { batchKeys } from './batch-keys';
import { indexedDbStorage, Outbox, type OutboxItem } from './outbox';
import { queueKeys } from './queue.cache';
import { askUnreleased } from './unreleased-question';

const sentListeners = new Set<(item: OutboxItem) => void>();

const send = (item: OutboxItem) => {
  const route = routes[item.route as RouteName];
  // biome-ignore lint/suspicious/noExplicitAny: the item was made from this route's own input
  return (apiKeyed as any)(item.key, route, item.input) as Promise<unknown>;
};

let outbox: Outbox | undefined;
/** The device's one outbox (IndexedDB where the browser has it). */
export const theOutbox = (): Outbox => {
  outbox ??= new Outbox(indexedDbStorage(), send, (item) => {
    for (const listener of sentListeners) listener(item);
  });
  return outbox;
};

const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Sends a staff action now, or keeps it in the outbox when there is no
 * connection (the browser says so, or the request got no answer): it is
 * sent later, in order, with the same key. Answers the server's answer, or
 * `null` when the action waits.
 */
export const sendOrKeep = async <N extends RouteName>(
  name: N,
  input: ApiInput<(typeof routes)[N]>,
  about: { vehicle: string; action: string },
): Promise<ResponseOf<(typeof routes)[N]> | null> => {
  const item: OutboxItem = { key: idempotencyKey(), route: name, input, ...about, at: Date.now() };
  const box = theOutbox();
  if (offline() || box.snapshot().items.length > 0) {
    // Behind what already waits, so the order holds.
    await box.add(item);
    if (!offline()) void box.flush();
    return null;
  }
  try {
    return (await send(item)) as ResponseOf<(typeof routes)[N]>;
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    await box.add(item);
    return null;
  }
};

/** What waits in the outbox and what was refused. */
export const useOutbox = () => {
  const box = theOutbox();
  return useSyncExternalStore(box.subscribe, box.snapshot, box.snapshot);
};

/** Whether the browser has a connection (its `online`/`offline` events). */
export const useOnline = () =>
  useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
    () => true,
  );

/**
 * Sends what waits once the connection is back (and on start), and reads the
 * queue again after each item sent (the live events patch the other screens).
 */
export const useOutboxSender = () => {
  const queryClient = useQueryClient();
  useEffect(() => {
    const box = theOutbox();
    // The queue and the batches (the back queue's keys module: keys only, no code of that screen).
    const sent = () => {
      void queryClient.invalidateQueries({ queryKey: queueKeys.all });
      void queryClient.invalidateQueries({ queryKey: batchKeys.all });
    };
    sentListeners.add(sent);
    const flush = () => void box.flush();
    window.addEventListener('online', flush);
    if (navigator.onLine) flush();
    // A completion that waited and was refused for children no teacher released asks at once
    // (its card keeps the question, with Complete anyway and Dismiss, until answered).
    const asked = new Set<string>();
    const unsubscribe = box.subscribe(() => {
      for (const refusal of box.snapshot().refusals) {
        if (!refusal.unreleased || asked.has(refusal.key)) continue;
        asked.add(refusal.key);
        askUnreleased({
          message: refusal.message,
          unreleased: refusal.unreleased,
          confirm: () => void box.confirm(refusal.key, idempotencyKey()),
        });
      }
    });
    return () => {
      sentListeners.delete(sent);
      window.removeEventListener('online', flush);
      unsubscribe();
    };
  }, [queryClient]);
};
