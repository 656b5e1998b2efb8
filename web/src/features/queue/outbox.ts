import { isNetworkFailure } from '../../lib/idempotency';

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
  message: string;
}

/** Where the outbox keeps its items (IndexedDB in the browser, memory in tests). */
export interface OutboxStorage {
  load(): Promise<OutboxItem[]>;
  save(items: readonly OutboxItem[]): Promise<void>;
}

const DB_NAME = 'curbside-outbox';
const STORE = 'outbox';
const RECORD = 'items';

let opened: Promise<IDBDatabase> | undefined;
/** One connection for the page's life. */
const openDb = () => {
  opened ??= openOnce();
  return opened;
};
const openOnce = () =>
  new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** The items as one record of one IndexedDB store: small, written whole on every change. */
export const indexedDbStorage = (): OutboxStorage => ({
  async load() {
    const db = await openDb();
    return new Promise<OutboxItem[]>((resolve, reject) => {
      const request = db.transaction(STORE).objectStore(STORE).get(RECORD);
      request.onsuccess = () => resolve((request.result as OutboxItem[] | undefined) ?? []);
      request.onerror = () => reject(request.error);
    });
  },
  async save(items) {
    const db = await openDb();
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction(STORE, 'readwrite');
      transaction.objectStore(STORE).put([...items], RECORD);
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    });
  },
});

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
    /** Called with each item sent (its answer), to patch the screens' caches. */
    private readonly onSent: (item: OutboxItem, answer: unknown) => void = () => {},
  ) {
    this.loaded = storage
      .load()
      .then((items) => {
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
        this.refusals = [
          ...this.refusals,
          { key: item.key, vehicle: item.vehicle, message: messageOf(error) },
        ];
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

/** The header's words for the outbox: "Offline — 3 changes waiting". */
export const waitingText = (online: boolean, waiting: number): string | null => {
  if (waiting === 0) return null;
  const changes = `${waiting} ${waiting === 1 ? 'change' : 'changes'} waiting`;
  return online ? `Sending — ${changes}` : `Offline — ${changes}`;
};
