import { CAR_LINE_EVENT_TYPES, type CarLineEvent, LIVE_EVENT_TYPES, type LiveEvent } from '@curbside/api';
import type { QueryCacheNotifyEvent, QueryClient, QueryKey } from '@tanstack/react-query';
import { endedBy, restoredBy } from './changes';

/**
 * Keeps a screen's cached lists current from the live events, without
 * reading them again: each car-line event carries the changed records and
 * its number in the session's sequence, and the registered cache patches
 * apply it to the cached queries (`setQueryData`).
 *
 * A screen reads its lists again only when it must:
 * - a number was skipped (an event was missed): after a short grace for
 *   events that were merely overtaken, the session's patched queries are
 *   invalidated once (the observed ones refetch, once each);
 * - the connection came back after a loss (`reset`, and the provider reads
 *   everything again);
 * - a screen's own polling interval (the specification's), untouched here.
 *
 * A list just read from the server may miss the last few events (the read
 * raced them), so the recent events are applied again to every list that
 * arrives; records carry versions and ended visits stay ended, so applying
 * an event twice changes nothing.
 */

/** What a patch may ask while it applies an event. */
export interface PatchContext {
  /** Whether a visit (its entry id) or an alert (`alert:{id}`) ended for good in this session. */
  ended(key: string): boolean;
  /** Another cached query's data (patches registered earlier have already applied the event). */
  data<T>(queryKey: QueryKey): T | undefined;
}

/** A cache patch: which of a session's cached queries it keeps current, and how. */
export interface CachePatch {
  readonly name: string;
  /** True for a cached query of session `sessionId` that this patch keeps current. */
  matches(queryKey: QueryKey, sessionId: number): boolean;
  /** Applies events, in order, to one cached query. */
  applyTo(
    client: QueryClient,
    queryKey: QueryKey,
    events: readonly CarLineEvent[],
    context: PatchContext,
  ): void;
  /** Adds the queries an event makes known in full (a new batch's only vehicle), when not cached yet. */
  create?(client: QueryClient, event: CarLineEvent, sessionId: number): void;
}

/**
 * A cache patch from a pure reducer over the query's data: the reducer
 * answers the same object when the event does not concern the query, and
 * nothing is written then.
 */
export const cachePatch = <T>(spec: {
  name: string;
  matches: (queryKey: QueryKey, sessionId: number) => boolean;
  reduce: (data: T, event: CarLineEvent, context: PatchContext, queryKey: QueryKey) => T;
  create?: (client: QueryClient, event: CarLineEvent, sessionId: number) => void;
}): CachePatch => ({
  name: spec.name,
  matches: spec.matches,
  applyTo: (client, queryKey, events, context) => {
    const before = client.getQueryData<T>(queryKey);
    if (before === undefined) return;
    let after: T = before;
    for (const event of events) after = spec.reduce(after, event, context, queryKey);
    if (after !== before) client.setQueryData<T>(queryKey, () => after);
  },
  ...(spec.create ? { create: spec.create } : {}),
});

const LIVE_TYPES: ReadonlySet<string> = new Set(LIVE_EVENT_TYPES);
const CAR_LINE_TYPES: ReadonlySet<string> = new Set(CAR_LINE_EVENT_TYPES);

/** A message from the connection that names a type of the catalogue (the server's shapes are trusted). */
export const isLiveEvent = (message: unknown): message is LiveEvent =>
  typeof message === 'object' &&
  message !== null &&
  'type' in message &&
  typeof message.type === 'string' &&
  LIVE_TYPES.has(message.type);

const isCarLineEvent = (event: LiveEvent): event is CarLineEvent => CAR_LINE_TYPES.has(event.type);

interface SessionState {
  /** The number expected next; unknown until the first numbered event. */
  next: number | undefined;
  /** Events that arrived ahead of a missing number. */
  pending: Map<number, CarLineEvent>;
  gapTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last events applied, to apply again to lists just read. */
  recent: CarLineEvent[];
  ended: Set<string>;
}

export interface LiveSyncOptions {
  /** How long a skipped number may be overtaken before it counts as missed (ms). */
  gapGraceMs?: number;
  /** How many recent events are applied again to a list just read. */
  recentEvents?: number;
  /** Told of every missed event (the benchmark counts them). */
  onGap?: (sessionId: number, missing: number[]) => void;
}

export class LiveSync {
  private readonly patches = new Map<string, { patch: CachePatch; users: number }>();
  private readonly sessions = new Map<number, SessionState>();
  private readonly gapGraceMs: number;
  private readonly recentEvents: number;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly client: QueryClient,
    private readonly options: LiveSyncOptions = {},
  ) {
    this.gapGraceMs = options.gapGraceMs ?? 1500;
    this.recentEvents = options.recentEvents ?? 300;
    this.unsubscribe = client.getQueryCache().subscribe(this.onCacheEvent);
  }

  /** Keeps the queries a patch matches current while registered; answers the unregistration. */
  register(patches: readonly CachePatch[]): () => void {
    for (const patch of patches) {
      const known = this.patches.get(patch.name);
      this.patches.set(patch.name, { patch, users: (known?.users ?? 0) + 1 });
    }
    return () => {
      for (const patch of patches) {
        const known = this.patches.get(patch.name);
        if (!known) continue;
        if (known.users <= 1) this.patches.delete(patch.name);
        else known.users--;
      }
    };
  }

  /** A message from the live connection. */
  receive(message: LiveEvent): void {
    if (!isCarLineEvent(message) || message.sessionId === undefined) return;
    const { sessionId, seq } = message;
    const state = this.stateOf(sessionId);
    if (seq === undefined || state.next === undefined || seq < state.next) {
      // Not numbered, the first numbered one seen, or a late copy: apply it (versions keep what is newer).
      if (seq !== undefined && state.next === undefined) state.next = seq + 1;
      this.apply(sessionId, message);
      return;
    }
    if (seq > state.next) {
      state.pending.set(seq, message);
      state.gapTimer ??= setTimeout(() => this.missed(sessionId), this.gapGraceMs);
      return;
    }
    this.apply(sessionId, message);
    state.next = seq + 1;
    this.drain(sessionId, state);
  }

  /** The connection came back after a loss: sequence positions start again from the next event. */
  reset(): void {
    for (const state of this.sessions.values()) {
      clearTimeout(state.gapTimer);
      state.gapTimer = undefined;
      state.pending.clear();
      state.next = undefined;
    }
  }

  /** A visit Undo brought back (its answer may come before its event): it is no longer ended. */
  restored(sessionId: number, entryId: string): void {
    this.sessions.get(sessionId)?.ended.delete(entryId);
  }

  /** Whether a visit or alert ended for good in the session (for mutations answering late). */
  hasEnded(sessionId: number, key: string): boolean {
    return this.sessions.get(sessionId)?.ended.has(key) ?? false;
  }

  stop(): void {
    this.reset();
    this.unsubscribe();
  }

  private stateOf(sessionId: number): SessionState {
    let state = this.sessions.get(sessionId);
    if (!state) {
      state = { next: undefined, pending: new Map(), gapTimer: undefined, recent: [], ended: new Set() };
      this.sessions.set(sessionId, state);
    }
    return state;
  }

  private contextOf(state: SessionState): PatchContext {
    return {
      ended: (key) => state.ended.has(key),
      data: <T>(queryKey: QueryKey) => this.client.getQueryData<T>(queryKey),
    };
  }

  private apply(sessionId: number, event: CarLineEvent): void {
    const state = this.stateOf(sessionId);
    for (const key of restoredBy(event)) state.ended.delete(key);
    for (const key of endedBy(event)) state.ended.add(key);
    state.recent.push(event);
    if (state.recent.length > this.recentEvents)
      state.recent.splice(0, state.recent.length - this.recentEvents);
    const context = this.contextOf(state);
    for (const { patch } of this.patches.values()) {
      for (const query of this.client.getQueryCache().findAll()) {
        if (patch.matches(query.queryKey, sessionId))
          patch.applyTo(this.client, query.queryKey, [event], context);
      }
      patch.create?.(this.client, event, sessionId);
    }
  }

  /** Applies the events that waited for the one just applied, as long as they follow on. */
  private drain(sessionId: number, state: SessionState): void {
    for (let event = state.pending.get(state.next ?? 0); event && state.next !== undefined; ) {
      state.pending.delete(state.next);
      this.apply(sessionId, event);
      state.next++;
      event = state.pending.get(state.next);
    }
    if (state.pending.size === 0) {
      clearTimeout(state.gapTimer);
      state.gapTimer = undefined;
    }
  }

  /**
   * A number stayed missing through the grace: apply what waited, move on
   * past it, and read the session's patched lists again, once.
   */
  private missed(sessionId: number): void {
    const state = this.stateOf(sessionId);
    state.gapTimer = undefined;
    if (state.pending.size === 0 || state.next === undefined) return;
    const waiting = [...state.pending.keys()].sort((a, b) => a - b);
    const missing: number[] = [];
    for (let seq = state.next; seq < (waiting.at(-1) ?? state.next); seq++) {
      if (!state.pending.has(seq)) missing.push(seq);
    }
    for (const seq of waiting) {
      const event = state.pending.get(seq);
      if (event) this.apply(sessionId, event);
    }
    state.pending.clear();
    state.next = (waiting.at(-1) ?? state.next) + 1;
    this.options.onGap?.(sessionId, missing);
    void this.client.invalidateQueries({
      predicate: (query) =>
        [...this.patches.values()].some(({ patch }) => patch.matches(query.queryKey, sessionId)),
    });
  }

  /** A list just read from the server: apply the recent events of its session to it again. */
  private onCacheEvent = (event: QueryCacheNotifyEvent): void => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
    const { queryKey } = event.query;
    for (const [sessionId, state] of this.sessions) {
      if (state.recent.length === 0) continue;
      const context = this.contextOf(state);
      for (const { patch } of this.patches.values()) {
        if (patch.matches(queryKey, sessionId)) patch.applyTo(this.client, queryKey, state.recent, context);
      }
    }
  };
}
