import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, type DismissalChange, ValidationError, type WayEvent } from '@curbside/domain';
import { deleteAll, getAll } from './batch-write';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { type FoundItems, foundOf, type ItemKey, itemAt, type KeyedRead } from './keyed-read';
import { itemSize } from './meter';
import { migrateEntity } from './migration';
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
 * upcoming items by student and vehicle (`moveToLastDayIndex`; a table marked by an
 * earlier version, `BY_LAST_DAY`, the school's item `BY_LAST_DAY_AND_UPCOMING`
 * or the items by student and car `BY_LAST_DAY_AND_UPCOMING_BY_STUDENT`,
 * runs it again).
 */
const MOVED_MARK = { pk: 'MIGRATION#DISMISSAL_CHANGES', sk: 'BY_LAST_DAY_AND_UPCOMING_BY_VEHICLE' };

/**
 * The changes that may still fall on a day, by key (issue 54), in small items:
 * - a student's: `SCHOOL#{schoolId}#STUDENT#{studentId}#CHANGES` / `UPCOMING`,
 *   every change of the student;
 * - a vehicle's: `SCHOOL#{schoolId}#CAR#{vehicleId}#CHANGES` / `UPCOMING`, the
 *   changes that name that car (a child going home with another family's car)
 *   or that bus (a child riding it that day; the name `CAR` kept for a bus too).
 * An attribute `c{id}` per change (as written last), kept by every write of a
 * change in its own transaction, so a car's reads take the day's changes of its
 * children (and those naming it) by key with them, no Query, and a change made
 * a moment ago counts at once; the read units grow with the car's children,
 * never with the school's changes. A write drops the changes whose last day is
 * before the day it is made (`prune`). Should an item grow past
 * `UPCOMING_MAX_BYTES` (a safety: a student's never should) it is marked
 * `overflow` and no longer kept: its readers take the Query (`mayFallOn`).
 * The school's item of before (`SCHOOL#{schoolId}#CHANGES` / `UPCOMING`) is no
 * longer read or written.
 */
const studentUpcomingKey = (schoolId: number, studentId: number) => ({
  pk: `SCHOOL#${schoolId}#STUDENT#${studentId}#CHANGES`,
  sk: 'UPCOMING',
});
const carUpcomingKey = (schoolId: number, vehicleId: number) => ({
  pk: `SCHOOL#${schoolId}#CAR#${vehicleId}#CHANGES`,
  sk: 'UPCOMING',
});
/** The upcoming items that hold a change: its student's, and the car's or bus's it names (if any). */
const holdersOf = (change: Pick<DismissalChange, 'schoolId' | 'studentId' | 'way'>): ItemKey[] => [
  studentUpcomingKey(change.schoolId, change.studentId),
  ...((change.way.mode === 'car' || change.way.mode === 'bus') && change.way.vehicleId !== undefined
    ? [carUpcomingKey(change.schoolId, change.way.vehicleId)]
    : []),
];
/** The holders of a write's changes (its before and after: each holds the change as written now), once each. */
const holdersOfAll = (...changes: DismissalChange[]): ItemKey[] => [
  ...new Map(changes.flatMap(holdersOf).map((at) => [at.pk, at])).values(),
];
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
 * The Update of an upcoming item (`held`) for a change's transaction: the change
 * as written now, less the changes (`read`: the item as read before) that ended
 * before `today`; or the overflow mark when it would grow too big.
 */
const upcomingUpdate = (
  db: Db,
  held: ItemKey,
  change: DismissalChange,
  read: Record<string, unknown> | undefined,
  today: string,
) => {
  const kept = upcomingOf(read);
  if (kept === 'overflow') return { Put: overflowItem(db, held, change.schoolId) };
  // At most 100 ended ones a write (an expression's size): the rest go with the next writes.
  const ended = kept
    .filter((other) => other.id !== change.id && lastDayOf(other) < today)
    .slice(0, 100)
    .map((other) => other.id);
  if (itemSize(read ?? {}) + itemSize({ [fieldOf(change.id)]: change }) > UPCOMING_MAX_BYTES) {
    // Replaced by the mark alone (no longer the size of every change): its readers take the Query.
    return { Put: overflowItem(db, held, change.schoolId) };
  }
  const set = changeSet(db, held, change);
  const names: Record<string, string> = { ...set.ExpressionAttributeNames };
  ended.forEach((id, i) => {
    names[`#ended${i}`] = fieldOf(id);
  });
  return {
    Update: {
      ...set,
      UpdateExpression: `${set.UpdateExpression}${
        ended.length > 0 ? ` REMOVE ${ended.map((_, i) => `#ended${i}`).join(', ')}` : ''
      }`,
      ExpressionAttributeNames: names,
    },
  };
};

/** The Update that sets a change (as written now) in an upcoming item, for a write's transaction or the migration. */
const changeSet = (db: Db, held: ItemKey, change: DismissalChange) => ({
  TableName: db.table,
  Key: held,
  UpdateExpression: 'SET #change = :change, entity = :entity, schoolId = :schoolId',
  ExpressionAttributeNames: { '#change': fieldOf(change.id) },
  ExpressionAttributeValues: {
    ':change': change,
    ':entity': 'upcomingChanges',
    ':schoolId': change.schoolId,
  },
});

/** An upcoming item grown too big: the overflow mark alone, in place of its copies. */
const overflowItem = (db: Db, held: ItemKey, schoolId: number) => ({
  TableName: db.table,
  Item: { ...held, entity: 'upcomingChanges', schoolId, overflow: true },
});

/**
 * The upcoming items as they are now (read before a change's transaction, to
 * prune them): a GetItem of the student's, one BatchGetItem with a car's.
 */
const readUpcoming = async (db: Db, held: readonly ItemKey[]): Promise<FoundItems> => {
  if (held.length === 1) {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: held[0], ConsistentRead: true }),
    );
    return foundOf(Item ? [Item] : []);
  }
  return foundOf(
    await getAll(
      db,
      held.map(({ pk, sk }) => ({ pk, sk })),
      true,
    ),
  );
};

/** The Updates of a change's upcoming items for its transaction (`found`: them as read before). */
const upcomingUpdates = (db: Db, held: readonly ItemKey[], change: DismissalChange, found: FoundItems) =>
  held.map((at) => upcomingUpdate(db, at, change, itemAt(found, at), prunedBefore()));

/** Today in UTC, less a day: no school's today is earlier (what a write may prune before). */
const prunedBefore = (now = Date.now()) => new Date(now - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/**
 * The day's changes of a car's children as a keyed read (`keyed-read.ts`): each
 * child's upcoming item and the car's own (the changes naming it), answered as
 * `mayFallOn` answers for them (`overflow`: one of them is not kept, read them by Query).
 */
export const keyedDayChanges = (
  schoolId: number,
  date: string,
  car: { studentIds: readonly number[]; vehicleId?: number },
): KeyedRead<DismissalChange[] | 'overflow'> => {
  const keys = [
    ...[...new Set(car.studentIds)].map((id) => studentUpcomingKey(schoolId, id)),
    ...(car.vehicleId !== undefined ? [carUpcomingKey(schoolId, car.vehicleId)] : []),
  ];
  return {
    keys,
    consistent: false,
    from: (found) => {
      const byId = new Map<number, DismissalChange>();
      for (const at of keys) {
        const held = upcomingOf(itemAt(found, at));
        if (held === 'overflow') return held;
        for (const change of held) byId.set(change.id, change);
      }
      return mayFall([...byId.values()], date);
    },
  };
};
/**
 * The students of the changes a car's or bus's upcoming item holds (every day
 * they may still fall on), as a keyed read: the children a change may send to
 * that vehicle, to be checked against their own upcoming items (a bus
 * release's candidates, issue 54). `overflow`: the item is not kept.
 */
export const keyedStudentsNamingVehicle = (
  schoolId: number,
  vehicleId: number,
): KeyedRead<number[] | 'overflow'> => {
  const at = carUpcomingKey(schoolId, vehicleId);
  return {
    keys: [at],
    consistent: false,
    from: (found) => {
      const held = upcomingOf(itemAt(found, at));
      return held === 'overflow' ? held : [...new Set(held.map((change) => change.studentId))];
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
 * A change put in its upcoming items as the migration read it
 * (`moveToLastDayIndex`), while it may still fall on a day: only while the
 * change still has the status read (every decision or cancellation changes it,
 * and keeps its own copies), so a run after deploying never puts back an older one.
 */
const keepUpcoming = async (db: Db, change: DismissalChange, sizes: Map<string, number>) => {
  if (lastDayOf(change) < prunedBefore()) return;
  for (const held of holdersOf(change)) {
    // The item's size as this run makes it (read once an item): past the limit, the mark alone.
    const size =
      (sizes.get(held.pk) ?? itemSize(itemAt(await readUpcoming(db, [held]), held) ?? {})) +
      itemSize({ [fieldOf(change.id)]: change });
    sizes.set(held.pk, size);
    if (size > UPCOMING_MAX_BYTES) {
      await db.doc.send(new PutCommand(overflowItem(db, held, change.schoolId)));
      continue;
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
                ...changeSet(db, held, change),
                ConditionExpression: 'attribute_not_exists(overflow)',
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
};

/**
 * The changes of a school whose last day is `date` or later, less those that
 * start after it (one Query of gsi1; `students`: a filter of theirs added).
 */
const mayFallQuery = async (
  db: Db,
  schoolId: number,
  date: string,
  students?: { filter: string; values: Record<string, number> },
): Promise<DismissalChange[]> => {
  const items = await queryAll(db, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
    FilterExpression: `#date <= :date${students?.filter ?? ''}`,
    ExpressionAttributeNames: { '#date': 'date' },
    ExpressionAttributeValues: {
      ':pk': lastDayPartition(schoolId),
      ':from': date,
      ':date': date,
      ...students?.values,
    },
  });
  return items.map(toChange);
};

/** The most values a filter's `IN` takes. */
const FILTER_IN_MAX = 100;

export const dismissalChanges = {
  /**
   * Erases every change of a student, with the office's marks of those pending
   * (issue 55) and the student's upcoming item; their copies in the items of
   * the cars they named leave too.
   */
  async eraseOfStudent(db: Db, schoolId: number, studentId: number): Promise<void> {
    const changes = await dismissalChanges.ofStudent(db, schoolId, studentId);
    await deleteAll(db, [
      ...changes.map((change) => key(change.id)),
      ...changes.filter((change) => change.status === 'pending').map(pendingKey),
      studentUpcomingKey(schoolId, studentId),
    ]);
    const own = studentUpcomingKey(schoolId, studentId).pk;
    for (const held of holdersOfAll(...changes).filter((at) => at.pk !== own)) {
      const named = changes.filter((change) => holdersOf(change).some((at) => at.pk === held.pk));
      // In slices: an expression's limits.
      for (let start = 0; start < named.length; start += 50) {
        const slice = named.slice(start, start + 50);
        await db.doc.send(
          new UpdateCommand({
            TableName: db.table,
            Key: held,
            UpdateExpression: `REMOVE ${slice.map((_, i) => `#c${i}`).join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(
              slice.map((change, i) => [`#c${i}`, fieldOf(change.id)]),
            ),
          }),
        );
      }
    }
  },

  nextId: (db: Db) => nextId(db, 'dismissalChange'),

  /** Writes a new change with its record (and its place in the office's queue while pending). */
  async create(db: Db, change: DismissalChange, write: ChangeWrite): Promise<DismissalChange> {
    const held = holdersOf(change);
    const upcoming = await readUpcoming(db, held);
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
            ...upcomingUpdates(db, held, change, upcoming),
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
    const held = holdersOfAll(before, after);
    const upcoming = await readUpcoming(db, held);
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
            ...upcomingUpdates(db, held, after, upcoming),
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
  mayFallOn(db: Db, schoolId: number, date: string): Promise<DismissalChange[]> {
    return mayFallQuery(db, schoolId, date);
  },

  /**
   * Once, after the upgrade to issue 54 (never a request path): gives every
   * single change written before it its place by last day (gsi1), where
   * `mayFallOn` finds it. A Scan of the table in pages; each change's index
   * keys are set only while they are still the old ones (a change written
   * meanwhile keeps its own). Safe to run before deploying the code that needs
   * it (the code before reads a moved change too) and again after. Every
   * change that may still fall on a day is also put in its student's upcoming
   * item, and the named car's (`keepUpcoming`: a car's reads take the day's
   * changes there). `once`:
   * skipped when a run with `once` already finished (the laptop's start).
   * Answers how many changes it moved.
   */
  async moveToLastDayIndex(db: Db, { once = false } = {}): Promise<number> {
    let moved = 0;
    const sizes = new Map<string, number>();
    await migrateEntity(db, { entity: 'dismissalChange', mark: MOVED_MARK, once }, async (items) => {
      for (const item of items) {
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
    });
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
    return mayFallQuery(db, schoolId, date, {
      filter: ` AND studentId IN (${names.join(', ')})`,
      values: Object.fromEntries(ids.map((id, i) => [names[i], id])),
    });
  },
};
