import { getOfTables } from './batch-write';
import type { Db } from './db';

/**
 * An item's key: in the data table, or in the table named `table` (the
 * live-connection table's items a poll reads beside the data's: a session's
 * event number, ADR 0027 "(h54zi)"). One BatchGetItem reads keys of both.
 */
export interface ItemKey {
  pk: string;
  sk: string;
  /** Another table than the request's data table, by name; absent: the data table. */
  table?: string;
}

/** Items a BatchGetItem found, by key (`foundOf`): what a keyed read picks its own from. */
export type FoundItems = ReadonlyMap<string, Record<string, unknown>>;

/** DynamoDB's most keys in one BatchGetItem. */
const BATCH_GET_KEYS = 100;

const keyOf = ({ pk, sk, table }: ItemKey) =>
  table === undefined ? `${pk}\u0000${sk}` : `${pk}\u0000${sk}\u0000${table}`;

/** The items found, by key (`table`: the table they were read from, when not the data table). */
export const foundOf = (items: readonly Record<string, unknown>[], table?: string): FoundItems =>
  new Map(items.map((item) => [keyOf({ ...(item as unknown as ItemKey), table }), item]));

/** Keys once each (a BatchGetItem refuses a key twice), with the table of each that is not the data table. */
export const uniqueKeys = (keys: readonly ItemKey[]): ItemKey[] => [
  ...new Map(
    keys.map((key) => [
      keyOf(key),
      key.table === undefined ? { pk: key.pk, sk: key.sk } : { pk: key.pk, sk: key.sk, table: key.table },
    ]),
  ).values(),
];

/**
 * One BatchGetItem (at most 100 keys) of keys of the data table and of others
 * (`ItemKey.table`): the items found, by key.
 */
const readAcross = async (db: Db, keys: readonly ItemKey[], consistent: boolean): Promise<FoundItems> => {
  const byTable: Record<string, Array<{ pk: string; sk: string }>> = {};
  for (const { pk, sk, table = db.table } of keys) byTable[table] = [...(byTable[table] ?? []), { pk, sk }];
  const read = await getOfTables(db, byTable, consistent);
  return new Map(
    Object.entries(read).flatMap(([table, items]) => [
      ...foundOf(items, table === db.table ? undefined : table),
    ]),
  );
};

/**
 * Items by key, of the data table and of others (`ItemKey.table`), each once:
 * one BatchGetItem per 100 keys, all at once (one round trip).
 */
export const readKeys = async (
  db: Db,
  keys: readonly ItemKey[],
  consistent: boolean,
): Promise<FoundItems> => {
  const unique = uniqueKeys(keys);
  const pages = await Promise.all(
    Array.from({ length: Math.ceil(unique.length / BATCH_GET_KEYS) }, (_, i) =>
      readAcross(db, unique.slice(i * BATCH_GET_KEYS, (i + 1) * BATCH_GET_KEYS), consistent),
    ),
  );
  return new Map(pages.flatMap((found) => [...found]));
};

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
   * Runs a keyed read on its own: one BatchGetItem per 100 keys (of whichever
   * tables), all at once (one round trip), none without keys.
   */
  async run<T>(db: Db, read: KeyedRead<T>): Promise<T> {
    if (read.keys.length === 0) return read.from(new Map());
    return read.from(await readKeys(db, read.keys, read.consistent ?? false));
  },
};
