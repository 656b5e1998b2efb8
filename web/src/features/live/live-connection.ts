import type { ClientMessage } from '@curbside/api';
import { backoffMs } from '@curbside/domain';

/**
 * The live connection: one WebSocket to `/ws` on the page's own host (wss on
 * https). Pings every 30 s; after any close it did not ask for it reconnects
 * with backoff (1 s doubling to 30 s, at most 10 attempts) and again whenever
 * the page becomes visible while closed, or the device's network comes back. A server's own close counts too: API
 * Gateway closes every connection after 2 hours with a clean close frame, and
 * a tablet left on must keep getting events. A message that is not JSON is
 * logged and ignored.
 */
export type LiveState = 'connecting' | 'open' | 'closed';

export interface LiveMessage {
  type: string;
  data?: unknown;
}

export const LIVE = {
  pingMs: 30_000,
  backoffStartMs: 1_000,
  backoffMaxMs: 30_000,
  maxAttempts: 10,
} as const;

/** Delay before reconnect attempt `n` (1-based): 1 s, 2 s, 4 s … capped at 30 s. */
export const backoffDelay = (attempt: number) =>
  backoffMs(attempt, LIVE.backoffStartMs, { capMs: LIVE.backoffMaxMs });

export const liveUrl = (location: Pick<Location, 'protocol' | 'host'>) =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

type Listener = (message: LiveMessage) => void;
type StateListener = (state: LiveState, retries: number) => void;
type ReopenListener = () => void;
/** `first`: the run's first socket opened; otherwise it opened again after a loss. */
type OpenListener = (first: boolean) => void;

export class LiveConnection {
  private socket: WebSocket | null = null;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private listeners = new Set<Listener>();
  private stateListeners = new Set<StateListener>();
  private openListeners = new Set<OpenListener>();
  private lostListeners = new Set<ReopenListener>();
  private stopped = false;
  /** Whether a socket of this run was open before: a later open is a reopen, with events missed in between. */
  private wasOpen = false;
  state: LiveState = 'closed';
  retries = 0;

  constructor(private readonly url: string) {}

  start() {
    this.stopped = false;
    this.wasOpen = false;
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.onOnline);
    this.open();
  }

  stop() {
    this.stopped = true;
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.onOnline);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.socket?.close(1000);
    this.socket = null;
    this.setState('closed');
  }

  /** Reconnects now, e.g. after signing in, so the server reads the new cookie. */
  restart() {
    this.stop();
    this.retries = 0;
    this.start();
  }

  /** Sends a message (a ping, a subscribe) when the socket is open; otherwise it is not sent. */
  send(message: LiveMessage | ClientMessage) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  subscribe(listener: Listener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  onState(listener: StateListener) {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  /**
   * Calls `listener` each time a socket opens: the first of a run (`first`), and
   * each time it opens again after it was lost. Whatever changed before the
   * server knew the socket arrived on no socket (lists read while the first
   * socket was still connecting included), so readers refresh.
   */
  onOpen(listener: OpenListener) {
    this.openListeners.add(listener);
    return () => {
      this.openListeners.delete(listener);
    };
  }

  /**
   * Calls `listener` each time an open socket closes without being asked to
   * (the network dropped, or the server closed it: e.g. the user was
   * deactivated and their sessions ended).
   */
  onLost(listener: ReopenListener) {
    this.lostListeners.add(listener);
    return () => {
      this.lostListeners.delete(listener);
    };
  }

  /** True once every reconnect attempt has failed; the page's becoming visible starts again. */
  get gaveUp() {
    return this.state === 'closed' && this.retries >= LIVE.maxAttempts && !this.stopped;
  }

  private setState(state: LiveState) {
    this.state = state;
    // On the page's root element (`data-live="open"` once connected): what a test, or a look in
    // the developer tools, waits on instead of a guess of time.
    document.documentElement.dataset.live = state;
    for (const listener of this.stateListeners) listener(state, this.retries);
  }

  private open() {
    clearTimeout(this.retryTimer);
    this.setState('connecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retries = 0;
      this.setState('open');
      const first = !this.wasOpen;
      this.wasOpen = true;
      for (const listener of this.openListeners) listener(first);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), LIVE.pingMs);
    };
    socket.onmessage = (event) => {
      let message: LiveMessage;
      try {
        message = JSON.parse(String(event.data));
      } catch (error) {
        console.error('Error parsing WebSocket message:', error);
        return;
      }
      if (message?.type === 'pong') return;
      for (const listener of this.listeners) listener(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      const wasOpen = this.state === 'open';
      clearInterval(this.pingTimer);
      this.socket = null;
      this.setState('closed');
      if (wasOpen && !this.stopped) for (const listener of this.lostListeners) listener();
      if (!this.stopped) this.scheduleRetry();
    };
  }

  private scheduleRetry() {
    if (this.retries >= LIVE.maxAttempts) return;
    this.retries += 1;
    this.setState('closed');
    this.retryTimer = setTimeout(() => this.open(), backoffDelay(this.retries));
  }

  /** Starts reconnecting again from the first attempt (after the attempts ran out). */
  retryNow() {
    if (this.stopped || this.state !== 'closed') return;
    this.retries = 0;
    this.open();
  }

  /** The device has a network again: reconnect now rather than at the backoff's next try. */
  private onOnline = () => {
    if (this.state !== 'closed') return;
    clearTimeout(this.retryTimer);
    this.retryNow();
  };

  private onVisible = () => {
    if (document.visibilityState === 'visible') this.retryNow();
  };
}
