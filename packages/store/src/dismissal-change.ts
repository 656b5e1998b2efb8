import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, type DismissalChange, ValidationError, type WayEvent } from '@curbside/domain';
import { getAll } from './batch-write';
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
 * - A school's changes of one day (gsi1): `SCHOOL#{schoolId}#CHANGES#{date}` /
 *   `{createdAt}#{id:010}`; a repeating change instead sits in
 *   `SCHOOL#{schoolId}#CHANGES#REPEATING` / `{until}#{id:010}`, read from the
 *   day on (`until >= date`): the repeating changes that ended are never read.
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
const dayPartition = (schoolId: number, date: string) => `SCHOOL#${schoolId}#CHANGES#${date}`;
const repeatingPartition = (schoolId: number) => `SCHOOL#${schoolId}#CHANGES#REPEATING`;
const studentPartition = (schoolId: number, studentId: number) =>
  `SCHOOL#${schoolId}#STUDENT#${studentId}#CHANGES`;
const pendingKey = (change: Pick<DismissalChange, 'schoolId' | 'date' | 'id'>) => ({
  pk: `SCHOOL#${change.schoolId}#PENDING_CHANGES`,
  sk: `${change.date}#${pad(change.id)}`,
});

const itemOf = (change: DismissalChange) => ({
  ...key(change.id),
  ...(change.until === null
    ? { gsi1pk: dayPartition(change.schoolId, change.date), gsi1sk: `${change.createdAt}#${pad(change.id)}` }
    : { gsi1pk: repeatingPartition(change.schoolId), gsi1sk: `${change.until}#${pad(change.id)}` }),
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

export const dismissalChanges = {
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
   * the repeating changes not ended before it (the caller keeps those whose
   * days include it). Two Queries of gsi1.
   */
  async mayFallOn(db: Db, schoolId: number, date: string): Promise<DismissalChange[]> {
    const [single, repeating] = await Promise.all([
      queryAll(db, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': dayPartition(schoolId, date) },
      }),
      queryAll(db, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
        ExpressionAttributeValues: { ':pk': repeatingPartition(schoolId), ':from': date },
      }),
    ]);
    return [...single, ...repeating].map(toChange);
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
};
