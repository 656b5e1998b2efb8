import type { LiveEvent, LiveEventType } from '@curbside/api';
import { type Query, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { CHANGE_PASSWORD_KEY } from '../auth/auth.mutations';
import { authQueries } from '../auth/auth.queries';
import { useCommittedStore } from './committed-store';
import { LiveConnection, liveUrl } from './live-connection';
import { type CachePatch, isLiveEvent, LiveSync } from './live-sync';

interface Live {
  connection: LiveConnection;
  sync: LiveSync;
}

const LiveContext = createContext<Live | null>(null);

/** How long the first socket's read again waits at most for the page's first paint. */
const FIRST_PAINT_WAIT_MS = 2_000;

/**
 * Calls `then` once the page has shown its first contentful paint (at once when it has), or after
 * `FIRST_PAINT_WAIT_MS` at most (a browser that reports no paint, a hidden tab). Answers a
 * function that cancels it.
 */
const afterFirstPaint = (then: () => void) => {
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  if (painted()) {
    then();
    return () => {};
  }
  let observer: PerformanceObserver | undefined;
  const fire = () => {
    observer?.disconnect();
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(fire, FIRST_PAINT_WAIT_MS);
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    observer = new PerformanceObserver(() => {
      if (painted()) fire();
    });
    observer.observe({ type: 'paint' });
  }
  return () => {
    observer?.disconnect();
    clearTimeout(timer);
  };
};

/**
 * The first socket of a run opened: a change made while it was connecting (a
 * slow network, a busy tablet) reached no socket of this page, so the lists
 * already read are read again, and those still being read are read once more
 * when their answer lands (that read may have come before the server knew the
 * socket). A read in flight is never cancelled: cancelling a first read left
 * its list empty on the teacher screen. Who is signed in is not a list.
 * Not before the page's first paint (issue 57, h57w): on a first load the socket may open while
 * the screen waits for its first reads (the front queue's keypad for the running session), and the
 * reads again then left before its paint, on a phone's connections beside its files. A read
 * made later closes the same gap (the socket hears every change from its opening on).
 * Answers a function that stops waiting for the reads in flight and the paint.
 */
const readAgainOnFirstOpen = (queryClient: QueryClient) => {
  const cache = queryClient.getQueryCache();
  const isList = (query: Query) => query.queryKey[0] !== authQueries.all[0];
  const lists = cache.getAll().filter(isList);
  const inFlight = new Set(
    lists.filter((query) => query.state.fetchStatus === 'fetching').map((query) => query.queryHash),
  );
  const due = new Set(
    lists
      .filter((query) => query.state.dataUpdatedAt > 0 && !inFlight.has(query.queryHash))
      .map((query) => query.queryHash),
  );
  let painted = false;
  const readDue = () => {
    if (!painted || due.size === 0) return;
    const hashes = new Set(due);
    due.clear();
    void queryClient.invalidateQueries(
      { predicate: (query) => hashes.has(query.queryHash) },
      { cancelRefetch: false },
    );
  };
  const stopPaint = afterFirstPaint(() => {
    painted = true;
    readDue();
  });
  if (inFlight.size === 0) return stopPaint;
  const stop = cache.subscribe((event) => {
    if (event.type !== 'updated' || !inFlight.has(event.query.queryHash)) return;
    const { type } = event.action;
    if (type !== 'success' && type !== 'error') return;
    inFlight.delete(event.query.queryHash);
    if (type === 'success') due.add(event.query.queryHash);
    readDue();
    if (inFlight.size === 0) stop();
  });
  return () => {
    stop();
    stopPaint();
  };
};

/** How long the live connection waits at most for the screen's first reads, and for a frame after them. */
const FIRST_READS_WAIT_MS = 5_000;
const FRAME_WAIT_MS = 250;

/**
 * Calls `then` once no read is in flight (the screen's first reads answered, or failed, or wait
 * offline) and the browser has painted a frame after them, or after `FIRST_READS_WAIT_MS` at most
 * (a hidden tab paints no frame: `FRAME_WAIT_MS`). Answers a function that cancels it.
 */
const afterFirstReads = (queryClient: QueryClient, then: () => void) => {
  let done = false;
  let frame = 0;
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const fire = () => {
    if (done) return;
    done = true;
    stopWatching();
    then();
  };
  const afterPaint = () => {
    frame = requestAnimationFrame(() => timers.push(setTimeout(fire, 0)));
    timers.push(setTimeout(fire, FRAME_WAIT_MS));
  };
  const cache = queryClient.getQueryCache();
  let stopWatching = () => {};
  if (queryClient.isFetching() === 0) afterPaint();
  else {
    stopWatching = cache.subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      stopWatching();
      stopWatching = () => {};
      afterPaint();
    });
  }
  timers.push(setTimeout(fire, FIRST_READS_WAIT_MS));
  return () => {
    done = true;
    stopWatching();
    cancelAnimationFrame(frame);
    for (const timer of timers) clearTimeout(timer);
  };
};

/**
 * Keeps one live connection for the app, and the cache sync that applies
 * its events to the cached lists. It reconnects when the signed-in user
 * changes, so the server sees the new session cookie at `$connect`. When the
 * connection comes back after it was lost, every query on screen is read
 * again: the events of the gap went to no socket; when the first one opens,
 * what was read before it is read again (`readAgainOnFirstOpen`). When an open connection is
 * lost, the current user is read again (a deactivated user's page signs out).
 */
export function LiveProvider({
  children,
  readAgainOnOpen = true,
  openAfterFirstReads = false,
}: {
  children: ReactNode;
  /**
   * Whether the first open reads again what was read before it (`readAgainOnFirstOpen`; the
   * default). The parent dashboard's is off (issue 57): on a phone that is every read of the
   * page again, just after its first paint; its status and arrivals are polled (every 30 s), and a
   * connection that comes back after a drop still reads everything again.
   */
  readAgainOnOpen?: boolean;
  /**
   * Whether the socket opens only once the screen's first reads are in and painted
   * (`afterFirstReads`; the parent dashboard's, which reads nothing again on its first open). The
   * staff screens' opens as soon as the user is known (issue 57, h57l): a list asked for after it
   * opened missed nothing and is not read again (`readAgainOnFirstOpen`), so their first reads,
   * asked once the running session is in, are made once instead of twice.
   */
  openAfterFirstReads?: boolean;
}) {
  const queryClient = useQueryClient();
  const [live] = useState<Live>(() => ({
    connection: new LiveConnection(liveUrl(window.location)),
    sync: new LiveSync(queryClient),
  }));
  useEffect(() => {
    const { connection, sync } = live;
    const stopReceiving = connection.subscribe((message) => {
      if (isLiveEvent(message)) sync.receive(message);
    });
    let stopWaiting = () => {};
    const stopReopening = connection.onOpen((first) => {
      if (first) {
        stopWaiting();
        if (readAgainOnOpen) stopWaiting = readAgainOnFirstOpen(queryClient);
        return;
      }
      sync.reset();
      void queryClient.invalidateQueries();
    });
    // A connection the server closed may mean the user's sessions ended
    // (deactivated): ask who is signed in, so a signed-out page shows the login screen.
    // A password change ends every session, this page's too, before its answer
    // brings the new cookie: asking now would sign the page out.
    const stopLosing = connection.onLost(() => {
      if (queryClient.isMutating({ mutationKey: CHANGE_PASSWORD_KEY }) > 0) return;
      void queryClient.invalidateQueries({ queryKey: authQueries.me().queryKey });
    });
    return () => {
      stopWaiting();
      stopReceiving();
      stopReopening();
      stopLosing();
    };
  }, [live, queryClient, readAgainOnOpen]);
  useEffect(() => () => live.sync.stop(), [live]);
  const me = useQuery(authQueries.me());
  const userId = me.data?.id ?? null;
  // Not while the first answer of who is signed in is on its way (offline, it waits for no answer):
  // a connection opened meanwhile was closed and opened again once it came, and a socket closed
  // while its $connect was still being recorded could stay listed in its channels, gone (issue 57:
  // the provider is an audience's layout now, mounted as the route's loader asks who is signed in).
  const asking = me.isPending && me.fetchStatus === 'fetching';
  // biome-ignore lint/correctness/useExhaustiveDependencies: reconnect when the signed-in user changes
  useEffect(() => {
    if (asking) return;
    // The parent dashboard's once its first reads are in and drawn (issue 57): the socket's opening
    // comes after the first paint, not in the middle of it on a phone.
    let stopWaiting = () => {};
    if (openAfterFirstReads) stopWaiting = afterFirstReads(queryClient, () => live.connection.restart());
    else live.connection.restart();
    return () => {
      stopWaiting();
      live.connection.stop();
    };
  }, [live, userId, asking, openAfterFirstReads]);
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}

const useLive = () => {
  const live = useContext(LiveContext);
  if (!live) throw new Error('The live hooks need a <LiveProvider>');
  return live;
};

export const useLiveConnection = () => useLive().connection;

/** The cache sync, e.g. to ask whether a visit ended before applying a late answer. */
export const useLiveSync = () => useLive().sync;

type EventOf<T extends LiveEventType> = Extract<LiveEvent, { type: T }>;

const isOneOf = <T extends LiveEventType>(event: LiveEvent, types: readonly T[]): event is EventOf<T> =>
  types.some((type) => type === event.type);

/** Calls `handler` for every live event of the given type(s), typed by the event catalogue. */
export const useLiveEvent = <T extends LiveEventType>(
  types: T | readonly T[],
  handler: (event: EventOf<T>) => void,
) => {
  const connection = useLiveConnection();
  const latest = useRef(handler);
  latest.current = handler;
  const list: readonly T[] = typeof types === 'string' ? [types] : types;
  const key = list.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the types are compared by their joined names
  useEffect(
    () =>
      connection.subscribe((message) => {
        if (isLiveEvent(message) && isOneOf(message, list)) latest.current(message);
      }),
    [connection, key],
  );
};

/**
 * Keeps the queries these patches match current from the live events while
 * the calling screen is mounted (each patch is applied once however many
 * screens register it).
 */
export const useLivePatches = (patches: readonly CachePatch[]) => {
  const { sync } = useLive();
  const key = patches.map((patch) => patch.name).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the patches are compared by their names
  useEffect(() => sync.register(patches), [sync, key]);
};

/**
 * `{ state, retries }` of the live connection, for the retry counter and Live/Offline badges.
 * Read as a store: a change between a render and its subscription (the socket opened meanwhile)
 * is not missed. Not `useSyncExternalStore` (issue 57, h57t): the header's status and the front
 * queue read it in renders done in transitions, which the socket's opening made React draw again
 * whole and at once (`useCommittedStore`).
 */
export const useLiveStatus = () => {
  const connection = useLiveConnection();
  const subscribe = useCallback((changed: () => void) => connection.onState(changed), [connection]);
  const state = useCommittedStore(subscribe, () => connection.state);
  const retries = useCommittedStore(subscribe, () => connection.retries);
  return { state, retries };
};

/** How long a screen waits at most for its live connection to open before it reads anyway. */
const OPEN_WAIT_MS = 3_000;

/**
 * False until the live connection has opened, then true for good: once it is open (a list read
 * from then on missed no event and is not read again when it opens), has failed (offline: it
 * retries), or after 3 s at most (what was read before it opens is read again then, as always).
 * Not yet started (the provider starts it in the commit that draws its screen) is not settled.
 * A later reconnect does not turn it back.
 */
export const useLiveSettled = () => {
  const { state, retries } = useLiveStatus();
  const [waited, setWaited] = useState(false);
  const [settled, setSettled] = useState(false);
  const now = settled || waited || state === 'open' || (state === 'closed' && retries > 0);
  useEffect(() => {
    if (now) {
      setSettled(true);
      return;
    }
    const timer = setTimeout(() => setWaited(true), OPEN_WAIT_MS);
    return () => clearTimeout(timer);
  }, [now]);
  return now;
};
