import {
  GetCommand,
  PutCommand,
  ScanCommand,
  type ScanCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, type DismissalChange, ValidationError, type WayEvent } from '@curbside/domain';
import { deleteAll, getAll } from './batch-write';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { itemSize } from './meter';
import { activeProgramCheck } from './program';
import { cancellationReasons, isConditionFailure, queryAll } from './query';
import { wayEventPut } from './way-event';

/**
 * Dated changes of a child's way home (issue 51).
 *
 * - The change: `DCHANGE#{id}` / `DCHANGE` (its id is all a decision or a
 *   cancellation names; the school is checked on the item).
 * - A school's changes by their last day (gsi1): `SCHOOL#{schoolId}#CHANGES#REPEATING` /
 *   `{last day}#{id:010}` (a single change's date, a repeating one's `until`):
 *   the changes that may fall on a day are one Query from that day on (issue 54),
 *   those that ended are never read. The partition keeps the name it had when it
 *   held only the repeating changes, so the code before issue 54 reads a moved
 *   change there too; single changes written before issue 54 sat in
 *   `SCHOOL#{schoolId}#CHANGES#{date}` / `{createdAt}#{id:010}` until
 *   `moveToLastDayIndex` moved them (`npm run admin -- index-dismissal-changes`).
 * - A student's changes (gsi2): `SCHOOL#{schoolId}#STUDENT#{studentId}#CHANGES` /
 *   `{last day}#{id:010}`, read from a day on (a family's list) or whole.
 * - The office's queue: `SCHOOL#{schoolId}#PENDING_CHANGES` / `{date}#{id:010}`,
 *   an item per pending change, put with it and deleted by its decision or
 *   cancellation in the same transaction.
 *
 * Every write carries its record event (`way-event.ts`) in its transaction, and
 * a decision or cancellation is held to the status it read.
 */
const key = (id: number) => ({ pk: `DCHANGE#${id}`, sk: 'DCHANGE' });
const pad = (id: number) => String(id).padStart(10, '0');
/** Every change of a school by its last day (the name of its repeating-only days kept: see above). */
const lastDayPartition = (schoolId: number) => `SCHOOL#${schoolId}#CHANGES#REPEATING`;
const lastDayIndex = (change: Pick<DismissalChange, 'schoolId' | 'date' | 'until' | 'id'>) => ({
  gsi1pk: lastDayPartition(change.schoolId),
  gsi1sk: `${change.until ?? change.date}#${pad(change.id)}`,
});
/**
 * Set once the laptop's own table had its changes moved and kept in their
 * school's upcoming item (`moveToLastDayIndex`; a table marked only for the
 * move, `BY_LAST_DAY`, runs it again).
 */
const MOVED_MARK = { pk: 'MIGRATION#DISMISSAL_CHANGES', sk: 'BY_LAST_DAY_AND_UPCOMING' };

/**
 * The school's changes that may still fall on a day, in one item (issue 54):
 * `SCHOOL#{schoolId}#CHANGES` / `UPCOMING`, an attribute `c{id}` per change
 * (as written last), kept by every write of a change in its own transaction, so
 * a car's reads take the day's changes by key with its children (no Query) and
 * a change made a moment ago counts at once. A write drops the changes whose
 * last day is before the day it is made (`prune`). Should the item grow past
 * `UPCOMING_MAX_BYTES` it is marked `overflow` and no longer kept: its readers
 * take the Query (`mayFallOn`) instead.
 */
const upcomingKey = (schoolId: number) => ({ pk: `SCHOOL#${schoolId}#CHANGES`, sk: 'UPCOMING' });
const fieldOf = (id: number) => `c${id}`;
const FIELD = /^c\d+$/;
const UPCOMING_MAX_BYTES = 200 * 1024;
const lastDayOf = (change: Pick<DismissalChange, 'date' | 'until'>) => change.until ?? change.date;

/** The changes an upcoming item holds (none for no item; `overflow`: not kept, read them by Query). */
const upcomingOf = (item: Record<string, unknown> | undefined): DismissalChange[] | 'overflow' => {
  if (!item) return [];
  if (item.overflow === true) return 'overflow';
  return Object.entries(item)
    .filter(([name]) => FIELD.test(name))
    .map(([, value]) => value as DismissalChange);
};

/** The changes of a list that may fall on `date`, as `mayFallOn` answers them (its last day that day or later, its first that day or earlier). */
const mayFall = (changes: readonly DismissalChange[], date: string) =>
  changes
    .filter((change) => lastDayOf(change) >= date && change.date <= date)
    .sort((a, b) => lastDayOf(a).localeCompare(lastDayOf(b)) || a.id - b.id);

/**
 * The Update of a school's upcoming item for a change's transaction: the change
 * as written now, less the changes (`read`: the item as read before) that ended
 * before `today`; or the overflow mark when it would grow too big.
 */
const upcomingUpdate = (
  db: Db,
  change: DismissalChange,
  read: Record<string, unknown> | undefined,
  today: string,
) => {
  const held = upcomingOf(read);
  if (held === 'overflow') return { Put: overflowItem(db, change.schoolId) };
  // At most 100 ended ones a write (an expression's size): the rest go with the next writes.
  const ended = held
    .filter((kept) => kept.id !== change.id && lastDayOf(kept) < today)
    .slice(0, 100)
    .map((kept) => kept.id);
  if (itemSize(read ?? {}) + itemSize({ [fieldOf(change.id)]: change }) > UPCOMING_MAX_BYTES) {
    // Replaced by the mark alone (no longer the size of every change): its readers take the Query.
    return { Put: overflowItem(db, change.schoolId) };
  }
  const names: Record<string, string> = { '#change': fieldOf(change.id) };
  ended.forEach((id, i) => {
    names[`#ended${i}`] = fieldOf(id);
  });
  return {
    Update: {
      TableName: db.table,
      Key: upcomingKey(change.schoolId),
      UpdateExpression: `SET #change = :change, entity = :entity, schoolId = :schoolId${
        ended.length > 0 ? ` REMOVE ${ended.map((_, i) => `#ended${i}`).join(', ')}` : ''
      }`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ':change': change,
        ':entity': 'upcomingChanges',
        ':schoolId': change.schoolId,
      },
    },
  };
};

/** A school's upcoming item grown too big: the overflow mark alone, in place of its copies. */
const overflowItem = (db: Db, schoolId: number) => ({
  TableName: db.table,
  Item: { ...upcomingKey(schoolId), entity: 'upcomingChanges', schoolId, overflow: true },
});

/** The school's upcoming item as it is now (read before a change's transaction, to prune it). */
const readUpcoming = async (db: Db, schoolId: number) =>
  (
    await db.doc.send(
      new GetCommand({ TableName: db.table, Key: upcomingKey(schoolId), ConsistentRead: true }),
    )
  ).Item;

/** Today in UTC, less a day: no school's today is earlier (what a write may prune before). */
const prunedBefore = (now = Date.now()) => new Date(now - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/**
 * The day's changes of a school as a keyed read (`keyed-read.ts`): its upcoming
 * item, answered as `mayFallOn` answers (`overflow`: read them by Query).
 */
export const keyedDayChanges = (
  schoolId: number,
  date: string,
): KeyedRead<DismissalChange[] | 'overflow'> => {
  const key = upcomingKey(schoolId);
  return {
    keys: [key],
    consistent: false,
    from: (found) => {
      const held = upcomingOf(itemAt(found, key));
      return held === 'overflow' ? held : mayFall(held, date);
    },
  };
};
const studentPartition = (schoolId: number, studentId: number) =>
  `SCHOOL#${schoolId}#STUDENT#${studentId}#CHANGES`;
const pendingKey = (change: Pick<DismissalChange, 'schoolId' | 'date' | 'id'>) => ({
  pk: `SCHOOL#${change.schoolId}#PENDING_CHANGES`,
  sk: `${change.date}#${pad(change.id)}`,
});

const itemOf = (change: DismissalChange) => ({
  ...key(change.id),
  ...lastDayIndex(change),
  gsi2pk: studentPartition(change.schoolId, change.studentId),
  gsi2sk: `${change.until ?? change.date}#${pad(change.id)}`,
  entity: 'dismissalChange',
  ...change,
});

const toChange = (item: Record<string, unknown>) => stripKeys<DismissalChange>(item);

export interface ChangeWrite {
  actor: WayEvent['actor'];
  retentionDays: number;
  /** The record's event of the write (its id made by the store). */
  event: Omit<WayEvent, 'id'>;
}

/** A change whose program must still be active when it is written. */
const programChecks = (db: Db, change: DismissalChange) =>
  change.way.mode === 'program' ? [activeProgramCheck(db, change.schoolId, change.way.programId)] : [];

const programGone = () => {
  const message = 'That program is no longer offered';
  return new ValidationError(message, [{ path: 'way', message }]);
};

/**
 * A change put in its school's upcoming item as the migration read it
 * (`moveToLastDayIndex`), while it may still fall on a day: only while the
 * change still has the status read (every decision or cancellation changes it,
 * and keeps its own copy), so a run after deploying never puts back an older one.
 */
const keepUpcoming = async (db: Db, change: DismissalChange, sizes: Map<number, number>) => {
  if (lastDayOf(change) < prunedBefore()) return;
  // The item's size as this run makes it (read once a school): past the limit, the mark alone.
  const size =
    (sizes.get(change.schoolId) ?? itemSize((await readUpcoming(db, change.schoolId)) ?? {})) +
    itemSize({ [fieldOf(change.id)]: change });
  sizes.set(change.schoolId, size);
  if (size > UPCOMING_MAX_BYTES) {
    await db.doc.send(new PutCommand(overflowItem(db, change.schoolId)));
    return;
  }
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: db.table,
              Key: key(change.id),
              ConditionExpression: '#status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':status': change.status },
            },
          },
          {
            Update: {
              TableName: db.table,
              Key: upcomingKey(change.schoolId),
              UpdateExpression: 'SET #change = :change, entity = :entity, schoolId = :schoolId',
              ConditionExpression: 'attribute_not_exists(overflow)',
              ExpressionAttributeNames: { '#change': fieldOf(change.id) },
              ExpressionAttributeValues: {
                ':change': change,
                ':entity': 'upcomingChanges',
                ':schoolId': change.schoolId,
              },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/** The most values a filter's `IN` takes. */
const FILTER_IN_MAX = 100;

export const dismissalChanges = {
  /** Erases every change of a student, with the office's marks of those pending (issue 55). */
  async eraseOfStudent(db: Db, schoolId: number, studentId: number): Promise<void> {
    const changes = await dismissalChanges.ofStudent(db, schoolId, studentId);
    await deleteAll(db, [
      ...changes.map((change) => key(change.id)),
      ...changes.filter((change) => change.status === 'pending').map(pendingKey),
    ]);
    // Their copies in the school's upcoming item leave with them (in slices: an expression's limits).
    for (let start = 0; start < changes.length; start += 50) {
      const slice = changes.slice(start, start + 50);
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: upcomingKey(schoolId),
          UpdateExpression: `REMOVE ${slice.map((_, i) => `#c${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(
            slice.map((change, i) => [`#c${i}`, fieldOf(change.id)]),
          ),
        }),
      );
    }
  },

  nextId: (db: Db) => nextId(db, 'dismissalChange'),

  /** Writes a new change with its record (and its place in the office's queue while pending). */
  async create(db: Db, change: DismissalChange, write: ChangeWrite): Promise<DismissalChange> {
    const upcoming = await readUpcoming(db, change.schoolId);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: itemOf(change),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            upcomingUpdate(db, change, upcoming, prunedBefore()),
            wayEventPut(db, write.event, write.retentionDays),
            ...(change.status === 'pending'
              ? [
                  {
                    Put: {
                      TableName: db.table,
                      Item: { ...pendingKey(change), entity: 'pendingChange', changeId: change.id },
                    },
                  },
                ]
              : []),
            ...programChecks(db, change),
          ],
        }),
      );
    } catch (error) {
      if (
        change.way.mode === 'program' &&
        isConditionFailure(error) &&
        cancellationReasons(error).at(-1) === 'ConditionalCheckFailed'
      )
        throw programGone();
      throw error;
    }
    return change;
  },

  async get(db: Db, id: number): Promise<DismissalChange | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(id), ConsistentRead: true }),
    );
    return Item ? toChange(Item) : undefined;
  },

  /**
   * A decision or a cancellation: the change as `after`, held to the status
   * read in `before` (409 when someone else decided or cancelled first), its
   * record, and its place in the office's queue removed when it was pending.
   */
  async transition(
    db: Db,
    before: DismissalChange,
    after: DismissalChange,
    write: ChangeWrite,
  ): Promise<DismissalChange> {
    const approving = before.status !== 'approved' && after.status === 'approved';
    const upcoming = await readUpcoming(db, after.schoolId);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: itemOf(after),
                ConditionExpression: '#status = :status',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':status': before.status },
              },
            },
            upcomingUpdate(db, after, upcoming, prunedBefore()),
            wayEventPut(db, write.event, write.retentionDays),
            ...(before.status === 'pending'
              ? [{ Delete: { TableName: db.table, Key: pendingKey(before) } }]
              : []),
            ...(approving ? programChecks(db, after) : []),
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (
        approving &&
        cancellationReasons(error).at(-1) === 'ConditionalCheckFailed' &&
        after.way.mode === 'program'
      )
        throw programGone();
      throw new ConflictError('This change was decided or cancelled meanwhile');
    }
    return after;
  },

  /**
   * A school's changes that may fall on a date: that day's single changes and
   * the repeating changes running on it (the caller keeps those whose days
   * include it). One Query of gsi1: the changes whose last day is that day or
   * later, less those that start after it (a filter: the later days' single
   * changes are read, not answered).
   */
  async mayFallOn(db: Db, schoolId: number, date: string): Promise<DismissalChange[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
      FilterExpression: '#date <= :date',
      ExpressionAttributeNames: { '#date': 'date' },
      ExpressionAttributeValues: { ':pk': lastDayPartition(schoolId), ':from': date, ':date': date },
    });
    return items.map(toChange);
  },

  /**
   * Once, after the upgrade to issue 54 (never a request path): gives every
   * single change written before it its place by last day (gsi1), where
   * `mayFallOn` finds it. A Scan of the table in pages; each change's index
   * keys are set only while they are still the old ones (a change written
   * meanwhile keeps its own). Safe to run before deploying the code that needs
   * it (the code before reads a moved change too) and again after. Every
   * change that may still fall on a day is also put in its school's upcoming
   * item (`keepUpcoming`: a car's reads take the day's changes there). `once`:
   * skipped when a run with `once` already finished (the laptop's start).
   * Answers how many changes it moved.
   */
  async moveToLastDayIndex(db: Db, { once = false } = {}): Promise<number> {
    if (once) {
      const { Item } = await db.doc.send(
        new GetCommand({ TableName: db.table, Key: MOVED_MARK, ConsistentRead: true }),
      );
      if (Item) return 0;
    }
    let moved = 0;
    const sizes = new Map<number, number>();
    let start: Record<string, unknown> | undefined;
    do {
      const page: ScanCommandOutput = await db.doc.send(
        new ScanCommand({
          TableName: db.table,
          FilterExpression: 'entity = :change',
          ExpressionAttributeValues: { ':change': 'dismissalChange' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const change = toChange(item);
        await keepUpcoming(db, change, sizes);
        if (String(item.gsi1pk).includes('#CHANGES#REPEATING')) continue;
        const index = lastDayIndex(change);
        try {
          await db.doc.send(
            new UpdateCommand({
              TableName: db.table,
              Key: key(change.id),
              UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
              ConditionExpression: 'gsi1pk = :old',
              ExpressionAttributeValues: { ':pk': index.gsi1pk, ':sk': index.gsi1sk, ':old': item.gsi1pk },
            }),
          );
          moved += 1;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }
      start = page.LastEvaluatedKey;
    } while (start);
    if (once) {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: { ...MOVED_MARK, entity: 'migration', at: new Date().toISOString() },
        }),
      );
    }
    return moved;
  },

  /** A student's changes whose last day is `from` or later (all of them without `from`), oldest first. */
  async ofStudent(db: Db, schoolId: number, studentId: number, from?: string): Promise<DismissalChange[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi2',
      KeyConditionExpression: from ? 'gsi2pk = :pk AND gsi2sk >= :from' : 'gsi2pk = :pk',
      ExpressionAttributeValues: {
        ':pk': studentPartition(schoolId, studentId),
        ...(from ? { ':from': from } : {}),
      },
    });
    return items.map(toChange);
  },

  /** The school's changes waiting for the office, by date (one Query, then one BatchGetItem). */
  async pending(db: Db, schoolId: number): Promise<DismissalChange[]> {
    const marks = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#PENDING_CHANGES` },
    });
    const items = await getAll(
      db,
      marks.map((mark) => key(mark.changeId as number)),
      true,
    );
    const byId = new Map(items.map((item) => [item.id as number, toChange(item)]));
    return marks
      .map((mark) => byId.get(mark.changeId as number))
      .filter((change): change is DismissalChange => change?.status === 'pending');
  },

  /**
   * `mayFallOn` of some students only (issue 54: a release by way home of a
   * classroom's children): the same Query and read units, its answer filtered
   * to their changes by DynamoDB, so a day on which many families made changes
   * is not sent and parsed whole for each release. Above 100 students (the
   * filter's limit), every change, as `mayFallOn`.
   */
  async mayFallOnFor(
    db: Db,
    schoolId: number,
    date: string,
    studentIds: readonly number[],
  ): Promise<DismissalChange[]> {
    const ids = [...new Set(studentIds)];
    if (ids.length === 0) return [];
    if (ids.length > FILTER_IN_MAX) return dismissalChanges.mayFallOn(db, schoolId, date);
    const names = ids.map((_, i) => `:s${i}`);
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
      FilterExpression: `#date <= :date AND studentId IN (${names.join(', ')})`,
      ExpressionAttributeNames: { '#date': 'date' },
      ExpressionAttributeValues: {
        ':pk': lastDayPartition(schoolId),
        ':from': date,
        ':date': date,
        ...Object.fromEntries(ids.map((id, i) => [names[i], id])),
      },
    });
    return items.map(toChange);
  },
};
