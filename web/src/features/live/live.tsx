import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { useMe } from '../auth/auth.queries';
import { LiveConnection, type LiveMessage, type LiveState, liveUrl } from './live-connection';

const LiveContext = createContext<LiveConnection | null>(null);

/**
 * Keeps one live connection for the app. It reconnects when the signed-in
 * user changes, so the server sees the new session cookie at `$connect`.
 * When the connection comes back after it was lost, every query on screen
 * is read again: the events of the gap went to no socket.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const [connection] = useState(() => new LiveConnection(liveUrl(window.location)));
  const queryClient = useQueryClient();
  useEffect(() => connection.onReopen(() => void queryClient.invalidateQueries()), [connection, queryClient]);
  const { user } = useMe();
  const userId = user?.id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reconnect when the signed-in user changes
  useEffect(() => {
    connection.restart();
    return () => connection.stop();
  }, [connection, userId]);
  return <LiveContext.Provider value={connection}>{children}</LiveContext.Provider>;
}

export const useLiveConnection = () => {
  const connection = useContext(LiveContext);
  if (!connection) throw new Error('useLiveConnection needs a <LiveProvider>');
  return connection;
};

/** Calls `handler` for every live message of the given type(s). */
export const useLiveEvent = (types: string | readonly string[], handler: (message: LiveMessage) => void) => {
  const connection = useLiveConnection();
  const latest = useRef(handler);
  latest.current = handler;
  const key = typeof types === 'string' ? types : types.join(',');
  useEffect(() => {
    const wanted = new Set(key.split(','));
    return connection.subscribe((message) => {
      if (wanted.has(message.type)) latest.current(message);
    });
  }, [connection, key]);
};

/** Invalidates the queries under each key prefix when one of the live message types arrives. */
export const useLiveInvalidate = (
  types: string | readonly string[],
  prefixes: ReadonlyArray<readonly unknown[]>,
) => {
  const queryClient = useQueryClient();
  useLiveEvent(types, () => {
    for (const queryKey of prefixes) void queryClient.invalidateQueries({ queryKey });
  });
};

/** `{ state, retries }` of the live connection, for the retry counter and Live/Offline badges. */
export const useLiveStatus = () => {
  const connection = useLiveConnection();
  const [status, setStatus] = useState<{ state: LiveState; retries: number }>({
    state: connection.state,
    retries: connection.retries,
  });
  useEffect(() => connection.onState((state, retries) => setStatus({ state, retries })), [connection]);
  return status;
};
