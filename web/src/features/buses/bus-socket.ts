import type { ClientMessage, LiveEvent } from '@curbside/api';
import { useEffect, useRef, useState } from 'react';

const PING_EVERY_MS = 30_000;
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export type SocketStatus = 'connecting' | 'open' | 'closed';

/** `/ws` on this site with a query (`?t=` a bus link, `?buses=1` the staff map). */
export const socketUrl = (query: string) =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${query}`;

/**
 * A live connection of the bus pages: opens `/ws{query}` (nothing when
 * `query` is null), pings every 30 s, opens again after a drop (1 s, 2 s,
 * 5 s, 10 s, then every 30 s), and hands every live message to `onEvent`.
 * `send` drops a message while the socket is not open (specification §7).
 */
export const useBusSocket = (query: string | null, onEvent: (event: LiveEvent) => void) => {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [retries, setRetries] = useState(0);
  const socket = useRef<WebSocket | null>(null);
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (query === null) {
      setStatus('closed');
      return;
    }
    let stopped = false;
    let attempt = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    const connect = () => {
      setStatus('connecting');
      const next = new WebSocket(socketUrl(query));
      socket.current = next;
      next.onopen = () => {
        attempt = 0;
        setRetries(0);
        setStatus('open');
        ping = setInterval(() => next.send(JSON.stringify({ type: 'ping' })), PING_EVERY_MS);
      };
      next.onmessage = (message) => {
        try {
          const event = JSON.parse(String(message.data)) as LiveEvent | { type: 'pong' };
          if (event.type !== 'pong') handler.current(event);
        } catch (error) {
          console.error('Error parsing WebSocket message:', error);
        }
      };
      next.onclose = () => {
        clearInterval(ping);
        if (socket.current === next) socket.current = null;
        if (stopped) return;
        setStatus('closed');
        const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] as number;
        attempt++;
        setRetries(attempt);
        retry = setTimeout(connect, wait);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(ping);
      socket.current?.close();
      socket.current = null;
    };
  }, [query]);

  const send = (message: ClientMessage): boolean => {
    const open = socket.current;
    if (!open || open.readyState !== WebSocket.OPEN) return false;
    open.send(JSON.stringify(message));
    return true;
  };
  return { status, retries, send };
};

/** The link's token from the page's address (`?t=`), or null. */
export const linkToken = (): string | null => {
  const token = new URLSearchParams(location.search).get('t');
  return token && /^[A-Za-z0-9_-]{32}$/.test(token) ? token : null;
};
