import { getAll } from './batch-write';
import type { Db } from './db';

/** An item's key in the data table. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** Items a BatchGetItem found, by key (`foundOf`): what a keyed read picks its own from. */
export type FoundItems = ReadonlyMap<string, Record<string, unknown>>;

/** DynamoDB's most keys in one BatchGetItem. */
const BATCH_GET_KEYS = 100;

const keyOf = ({ pk, sk }: ItemKey) => `${pk}\u0000${sk}`;

/** The items found, by key. */
export const foundOf = (items: readonly Record<string, unknown>[]): FoundItems =>
  new Map(items.map((item) => [keyOf(item as unknown as ItemKey), item]));

/** Keys once each (a BatchGetItem refuses a key twice). */
export const uniqueKeys = (keys: readonly ItemKey[]): Array<Record<string, string>> => [
  ...new Map(keys.map((key) => [keyOf(key), { pk: key.pk, sk: key.sk }])).values(),
];

/** The item found under `key`, if it was. */
export const itemAt = (found: FoundItems, key: ItemKey) => found.get(keyOf(key));

/**
 * A read of items by key that can share one BatchGetItem with others (issue
 * 54: a request's reads beside its caller's sign-in, one call for all): the
 * keys to read and how to make the answer of what was found. Each module makes
 * the keyed reads of its own items, so its keys stay its own.
 * `consistent`: it needs a strongly consistent read (the whole batch is then).
 */
export interface KeyedRead<T> {
  keys: readonly ItemKey[];
  consistent?: boolean;
  from(found: FoundItems): T;
}

/** What a keyed read answers. */
export type KeyedAnswer<R> = R extends KeyedRead<infer T> ? T : never;

type Answers<T extends readonly KeyedRead<unknown>[]> = {
  [K in keyof T]: T[K] extends KeyedRead<infer A> ? A : never;
};

export const keyedReads = {
  /** Nothing to read: answers `value`. */
  none<T>(value: T): KeyedRead<T> {
    return { keys: [], from: () => value };
  },

  /** Several keyed reads as one, answering each one's answer in order. */
  all<T extends readonly KeyedRead<unknown>[]>(...reads: T): KeyedRead<Answers<T>> {
    return {
      keys: reads.flatMap((read) => read.keys),
      consistent: reads.some((read) => read.consistent),
      from: (found) => reads.map((read) => read.from(found)) as Answers<T>,
    };
  },

  /** A keyed read's answer made into another. */
  map<T, U>(read: KeyedRead<T>, to: (value: T) => U): KeyedRead<U> {
    return { ...read, from: (found) => to(read.from(found)) };
  },

  /**
   * Runs a keyed read on its own: one BatchGetItem per 100 keys, all at once
   * (one round trip), none without keys.
   */
  async run<T>(db: Db, read: KeyedRead<T>): Promise<T> {
    if (read.keys.length === 0) return read.from(new Map());
    const keys = uniqueKeys(read.keys);
    const pages = await Promise.all(
      Array.from({ length: Math.ceil(keys.length / BATCH_GET_KEYS) }, (_, i) =>
        getAll(db, keys.slice(i * BATCH_GET_KEYS, (i + 1) * BATCH_GET_KEYS), read.consistent ?? false),
      ),
    );
    return read.from(foundOf(pages.flat()));
  },
};
