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
/** Set once the laptop's own table had its changes moved (`moveToLastDayIndex`). */
const MOVED_MARK = { pk: 'MIGRATION#DISMISSAL_CHANGES', sk: 'BY_LAST_DAY' };
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
  },

  nextId: (db: Db) => nextId(db, 'dismissalChange'),

  /** Writes a new change with its record (and its place in the office's queue while pending). */
  async create(db: Db, change: DismissalChange, write: ChangeWrite): Promise<DismissalChange> {
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
   * it (the code before reads a moved change too) and again after. `once`:
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
    let start: Record<string, unknown> | undefined;
    do {
      const page: ScanCommandOutput = await db.doc.send(
        new ScanCommand({
          TableName: db.table,
          FilterExpression: 'entity = :change AND NOT contains(gsi1pk, :last)',
          ExpressionAttributeValues: { ':change': 'dismissalChange', ':last': '#CHANGES#REPEATING' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const change = toChange(item);
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
