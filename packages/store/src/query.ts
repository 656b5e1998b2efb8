import { QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '@curbside/domain';
import { isConditionFailure } from './condition';
import type { Db } from './db';
import { stripKeys } from './ids';

export { cancellationReasons, isConditionFailure } from './condition';

/**
 * Every item of one Query, following pages until the end (or `limit` items).
 * Entity modules alone call it, with keys they own.
 */
export const queryAll = async (
  db: Db,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  limit?: number,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.table,
        ExclusiveStartKey: cursor,
        ...(limit ? { Limit: limit - items.length } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor && (!limit || items.length < limit));
  return items;
};

/** A page of items and the key to continue after (undefined on the last page). */
export interface KeyPage {
  items: Record<string, unknown>[];
  last: Record<string, unknown> | undefined;
}

/** Stop reading a page after this many items were looked at (a rare search over a large school). */
const PAGE_READ_BUDGET = 2000;

/**
 * One page of a Query with a filter: reads on until `limit` items matched, the
 * partition ends, or `PAGE_READ_BUDGET` items were looked at (then the page is
 * short and `last` says where to go on). `keyOf` names an item's key
 * attributes, so a page cut short inside a DynamoDB page resumes right after
 * its last item. Entity modules alone call it, with keys they own.
 */
export const queryPage = async (
  db: Db,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit' | 'Select'>,
  options: {
    limit: number;
    start?: Record<string, unknown>;
    keyOf: (item: Record<string, unknown>) => Record<string, unknown>;
  },
): Promise<KeyPage> => {
  const items: Record<string, unknown>[] = [];
  let cursor = options.start;
  let looked = 0;
  do {
    const page = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.table,
        ExclusiveStartKey: cursor,
        // Filtered reads look at more items than they keep.
        Limit: input.FilterExpression
          ? Math.max(100, (options.limit - items.length) * 2)
          : options.limit - items.length,
      }),
    );
    looked += page.ScannedCount ?? 0;
    for (const item of page.Items ?? []) {
      items.push(item);
      if (items.length === options.limit) {
        const cutShort = item !== page.Items?.[page.Items.length - 1] || page.LastEvaluatedKey !== undefined;
        return { items, last: cutShort ? options.keyOf(item) : undefined };
      }
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor && looked < PAGE_READ_BUDGET);
  return { items, last: cursor };
};

/** How many items a Query with a filter matches, all pages (`Select: COUNT`, nothing is returned). */
export const countAll = async (
  db: Db,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit' | 'Select'>,
): Promise<number> => {
  let count = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.doc.send(
      new QueryCommand({ ...input, TableName: db.table, Select: 'COUNT', ExclusiveStartKey: cursor }),
    );
    count += page.Count ?? 0;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return count;
};

/** The key a roster cursor names: the item's table key, and its gsi1 key for a list read from gsi1. */
export type CursorKey = { pk: string; sk: string; gsi1pk?: string; gsi1sk?: string };

/** A page cursor: the key to continue after, as URL-safe text. */
export const encodeCursor = (key: Record<string, unknown> | undefined): string | null =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;

/**
 * The key a cursor names, only if it is a key of the partition being read
 * (`expected` attributes equal) with non-empty string attributes only, of the
 * shape the list's own items have (`isKey`); anything else is refused (400
 * Invalid cursor), so a cursor can never start a read in another school's
 * partition, nor make DynamoDB refuse the read (a 500).
 */
export const decodeCursor = (
  cursor: string | undefined,
  expected: Record<string, string>,
  attributes: readonly string[],
  isKey: (key: CursorKey) => boolean,
): CursorKey | undefined => {
  if (!cursor) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ValidationError('Invalid cursor');
  }
  const record = key as CursorKey & Record<string, unknown>;
  const valid =
    typeof key === 'object' &&
    key !== null &&
    !Array.isArray(key) &&
    Object.keys(record).length === attributes.length &&
    attributes.every((name) => typeof record[name] === 'string' && record[name] !== '') &&
    Object.entries(expected).every(([name, value]) => record[name] === value) &&
    isKey(record);
  if (!valid) throw new ValidationError('Invalid cursor');
  return record;
};

/** `contains(#search, :search)` and `active` conditions of a roster list, with their names and values. */
export const rosterFilter = (
  search: string | undefined,
  extra: { expression: string; values: Record<string, unknown> } | null = null,
) => {
  const parts = ['(attribute_not_exists(active) OR active = :active)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':active': true };
  const needle = (search ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  if (needle) {
    parts.push('contains(#search, :search)');
    names['#search'] = 'search';
    values[':search'] = needle;
  }
  if (extra) {
    parts.push(extra.expression);
    Object.assign(values, extra.values);
  }
  return {
    FilterExpression: parts.join(' AND '),
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    values,
  };
};

/**
 * The reads every roster list makes of one partition (of the table, or of
 * gsi1): its active records page by page (with a search), all of them, and
 * how many are active. `only` narrows the partition (the teachers among a
 * school's staff). Entity modules call it with the partitions they own.
 */
export const rosterReads = <T>(options: {
  index?: 'gsi1';
  partition: (schoolId: number) => string;
  /** Whether a page cursor's key (partition already checked) has the shape of one of the list's items. */
  isKey: (key: CursorKey) => boolean;
  toRecord: (item: Record<string, unknown>) => T;
  only?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
}) => {
  const keyName = options.index ? 'gsi1pk' : 'pk';
  const cursorAttributes = options.index ? ['pk', 'sk', 'gsi1pk', 'gsi1sk'] : ['pk', 'sk'];
  const keyOf = (item: Record<string, unknown>) =>
    Object.fromEntries(cursorAttributes.map((name) => [name, item[name]]));
  const base = (_schoolId: number) => ({
    ...(options.index ? { IndexName: options.index } : {}),
    KeyConditionExpression: `${keyName} = :pk`,
  });
  const filtered = (schoolId: number, search?: string) => {
    const extra = options.only ? { expression: options.only.expression, values: options.only.values } : null;
    const { FilterExpression, ExpressionAttributeNames, values } = rosterFilter(search, extra);
    const names = { ...ExpressionAttributeNames, ...options.only?.names };
    return {
      ...base(schoolId),
      FilterExpression,
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: { ':pk': options.partition(schoolId), ...values },
    };
  };
  return {
    /** The active records, all pages. */
    async listActive(db: Db, schoolId: number): Promise<T[]> {
      return (await queryAll(db, filtered(schoolId))).map(options.toRecord);
    },
    /** Every record, deactivated ones too, all pages (a CSV import matches against them). */
    async listAll(db: Db, schoolId: number): Promise<T[]> {
      const only = options.only;
      const items = await queryAll(db, {
        ...base(schoolId),
        ...(only ? { FilterExpression: only.expression, ExpressionAttributeNames: only.names } : {}),
        ExpressionAttributeValues: { ':pk': options.partition(schoolId), ...only?.values },
      });
      return items.map(options.toRecord);
    },
    /** One page of the active records, in key order, optionally matching a search. */
    async page(
      db: Db,
      schoolId: number,
      page: { search?: string; cursor?: string; limit: number },
    ): Promise<{ items: T[]; next: string | null }> {
      const start = decodeCursor(
        page.cursor,
        { [keyName]: options.partition(schoolId) },
        cursorAttributes,
        options.isKey,
      );
      const found = await queryPage(db, filtered(schoolId, page.search), { limit: page.limit, start, keyOf });
      return { items: found.items.map(options.toRecord), next: encodeCursor(found.last) };
    },
    /** How many active records (a COUNT Query, all pages). */
    async count(db: Db, schoolId: number): Promise<number> {
      return countAll(db, filtered(schoolId));
    },
  };
};

/** Sets `sandbox` on an existing item (a school or a district): the item as it is now, or undefined when there is none. */
export const setSandboxOf = async <T>(
  db: Db,
  key: { pk: string; sk: string },
  sandbox: boolean,
): Promise<T | undefined> => {
  const { Attributes } = await db.doc
    .send(
      new UpdateCommand({
        TableName: db.table,
        Key: key,
        UpdateExpression: 'SET sandbox = :sandbox',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':sandbox': sandbox },
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { Attributes: undefined };
      throw error;
    });
  return Attributes ? stripKeys<T>(Attributes) : undefined;
};
