import type { UnreleasedStudent } from '@curbside/domain';
import { idbRecord } from '../../lib/device-store';
import { isNetworkFailure } from '../../lib/idempotency';
import { confirmedInput, unreleasedOf } from './unreleased';

/**
 * The device's outbox: staff actions made while the connection is down,
 * kept in order (in IndexedDB, so a reload keeps them) with the
 * `Idempotency-Key` each was made with, and sent in that order once the
 * connection is back. A refusal (409: the car was queued on another tablet
 * meanwhile) is kept beside the vehicle it concerns until seen.
 */
export interface OutboxItem {
  /** The action's Idempotency-Key (also its id here): a resend is never applied twice. */
  key: string;
  /** The route's name in the route table. */
  route: string;
  /** The call's params, query and body, as `api` takes them. */
  input: unknown;
  /** What the action does to which vehicle, for the screen ("Car 120"). */
  vehicle: string;
  /** "add", "remove", "complete": what the pending vehicle shows. */
  action: string;
  at: number;
}

export interface Refusal {
  key: string;
  vehicle: string;
  /** The queue entry the refused change was about (null for an add: the car had no entry yet). */
  entryId: string | null;
  message: string;
  /**
   * A completion refused because these children were not released by a
   * teacher (issue 50): the screen asks "Complete anyway?" and, if so, sends
   * `confirmed` (the same change, confirmed, with a new key).
   */
  unreleased?: UnreleasedStudent[];
  confirmed?: OutboxItem;
}

/** The queue entry an item is about (its `params.id`), if any. */
export const entryIdOf = (item: Pick<OutboxItem, 'input'>): string | null => {
  const id = (item.input as { params?: { id?: unknown } } | null)?.params?.id;
  return typeof id === 'string' ? id : null;
};

/** Where the outbox keeps its items (IndexedDB in the browser, memory in tests). */
export interface OutboxStorage {
  load(): Promise<OutboxItem[]>;
  save(items: readonly OutboxItem[]): Promise<void>;
}

const RECORD = 'items';

/** The items as one record of one IndexedDB store: small, written whole on every change. */
export const indexedDbStorage = (): OutboxStorage => {
  const record = idbRecord<OutboxItem[]>(RECORD);
  return {
    load: async () => (await record.read()) ?? [],
    save: (items) => record.write([...items]),
  };
};

/** Sends one item; resolves when answered OK, rejects with the error otherwise. */
export type Send = (item: OutboxItem) => Promise<unknown>;

export class Outbox {
  private items: OutboxItem[] = [];
  private refusals: Refusal[] = [];
  private listeners = new Set<() => void>();
  private flushing: Promise<void> | undefined;
  private loaded: Promise<void>;
  private snapshotValue: { items: readonly OutboxItem[]; refusals: readonly Refusal[] } = {
    items: [],
    refusals: [],
  };

  constructor(
    private readonly storage: OutboxStorage,
    private readonly send: Send,
    /**
     * Called with each item the server answered (its answer; null when refused), to bring the
     * screens' caches up to date: a refused change puts back what the screen showed ahead of it.
     */
    private readonly onSent: (item: OutboxItem, answer: unknown) => void = () => {},
  ) {
    this.loaded = storage
      .load()
      .then((items) => {
        // Nothing kept on the device (the usual start) changes nothing the screens show (issue 57,
        // h57t): a new snapshot here, landing while the screen's first render was drawn in a
        // transition, made React draw the whole screen again at once (`useSyncExternalStore`).
        if (items.length === 0) return;
        this.items = [...items, ...this.items];
        this.changed();
      })
      .catch(() => {});
  }

  /** What waits and what was refused, for `useSyncExternalStore`. */
  snapshot = () => this.snapshotValue;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Keeps an action to send later, after the ones already waiting. */
  async add(item: OutboxItem): Promise<void> {
    await this.loaded;
    if (this.items.some((other) => other.key === item.key)) return;
    this.items = [...this.items, item];
    this.changed();
    await this.storage.save(this.items);
  }

  /** Forgets a refusal once the staff saw it. */
  dismiss(key: string) {
    this.refusals = this.refusals.filter((refusal) => refusal.key !== key);
    this.changed();
  }

  /**
   * "Complete anyway" on a completion refused for unreleased children: the
   * refusal goes, and the confirmed change waits to be sent (then flushed).
   */
  async confirm(key: string, newKey: string): Promise<void> {
    const refusal = this.refusals.find((item) => item.key === key);
    if (!refusal?.confirmed) return;
    this.dismiss(key);
    await this.add({ ...refusal.confirmed, key: newKey, at: Date.now() });
    await this.flush();
  }

  /**
   * Sends what waits, in order. A network failure stops the flush (the rest
   * waits for the next); any other answer takes the item out: OK, or a
   * refusal kept for the screen (a 409 and the like).
   */
  flush(): Promise<void> {
    this.flushing ??= this.run().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async run() {
    await this.loaded;
    while (this.items.length > 0) {
      const [item] = this.items;
      if (!item) break;
      try {
        const answer = await this.send(item);
        this.onSent(item, answer);
      } catch (error) {
        if (isNetworkFailure(error)) return;
        const asked = unreleasedOf(error);
        this.refusals = [
          ...this.refusals,
          {
            key: item.key,
            vehicle: item.vehicle,
            entryId: entryIdOf(item),
            message: messageOf(error),
            ...(asked
              ? { unreleased: asked.unreleased, confirmed: { ...item, input: confirmedInput(item.input) } }
              : {}),
          },
        ];
        this.onSent(item, null);
      }
      this.items = this.items.slice(1);
      this.changed();
      await this.storage.save(this.items);
    }
  }

  private changed() {
    this.snapshotValue = { items: this.items, refusals: this.refusals };
    for (const listener of this.listeners) listener();
  }
}

const messageOf = (error: unknown): string => {
  const body = (error as { body?: unknown }).body;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
    return body.message;
  return error instanceof Error ? error.message : String(error);
};

/** "last updated 2 min ago" from the newest queue data a screen holds (0: none yet). */
export const updatedAgo = (updatedAt: number, now: number): string => {
  if (updatedAt === 0) return 'no data yet';
  const minutes = Math.floor((now - updatedAt) / 60_000);
  return minutes < 1 ? 'last updated just now' : `last updated ${minutes} min ago`;
};

export interface ConnectionFacts {
  /** The browser's word (`navigator.onLine`). */
  online: boolean;
  /** The live connection: open, or closed/connecting with its retry count; `gaveUp` once retries ran out. */
  live: 'connecting' | 'open' | 'closed';
  retries: number;
  gaveUp: boolean;
  /** Changes in the outbox. */
  waiting: number;
  /** When the newest queue data on screen was read (ms; 0: none). */
  updatedAt: number;
  now: number;
}

export type ConnectionLook = { text: string; tone: 'live' | 'busy' | 'offline'; retry?: boolean };

/**
 * What the header says about the connection, one state at a time:
 * "Offline — 3 changes waiting", "Offline — last updated 2 min ago",
 * "Sending — 1 change waiting", "Offline · Tap to reconnect",
 * "Reconnecting (2)", "Online · Live"; nothing while first connecting.
 */
export const connectionLook = (facts: ConnectionFacts): ConnectionLook | null => {
  const changes = `${facts.waiting} ${facts.waiting === 1 ? 'change' : 'changes'} waiting`;
  if (!facts.online) {
    return {
      text: `Offline — ${facts.waiting > 0 ? changes : updatedAgo(facts.updatedAt, facts.now)}`,
      tone: 'offline',
    };
  }
  if (facts.waiting > 0) return { text: `Sending — ${changes}`, tone: 'busy' };
  if (facts.gaveUp) return { text: 'Offline · Tap to reconnect', tone: 'offline', retry: true };
  if (facts.retries > 0) return { text: `Reconnecting (${facts.retries})`, tone: 'busy' };
  if (facts.live === 'open') return { text: 'Online · Live', tone: 'live' };
  return null;
};
