import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PickupSession, Recording } from '@curbside/domain';
import { ConflictError } from '@curbside/domain';
import type { Db } from './db';
import { eventPuts } from './dismissal-event';
import { eventSequence } from './event-sequence';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { decodeCursor, encodeCursor, isConditionFailure, queryAll, queryPage } from './query';

/**
 * Pickup session: `SESSION#{id}` / `SESSION`.
 * Sessions of a school, newest first: gsi1 `SCHOOL#{schoolId}#SESSIONS` / `{startTime}#{id:010}`.
 * Running sessions by end time (auto-end): gsi2 `ACTIVE_SESSIONS` / `{endTime}#{id:010}`,
 *   present only while the session is active.
 * One active session per school: `SCHOOL#{schoolId}` / `ACTIVE_SESSION` → sessionId,
 *   claimed in the same transaction as the session is written.
 */
const key = (id: number) => ({ pk: `SESSION#${id}`, sk: 'SESSION' });
const activeKey = (schoolId: number) => ({ pk: `SCHOOL#${schoolId}`, sk: 'ACTIVE_SESSION' });
const pad = (id: number) => String(id).padStart(10, '0');

const fromItem = (item: Record<string, unknown>) => {
  const { visitsMarked: _, ...session } = item;
  return stripKeys<PickupSession>(session);
};

/**
 * Whether the session's cars' ended visits are kept on their markers
 * (`queue-items.ts`, `VISITED#`): every session begun since the markers were
 * written says so; one begun before finds its earlier visits by Query.
 */
export const visitsMarked = (item: Record<string, unknown> | undefined) => item?.visitsMarked === true;

/** A session's key, and a session as stored: for a read beside others (`visit-reads.ts`). */
export { fromItem as sessionOf, key as sessionKey };

export const pickupSessions = {
  /**
   * Creates an active session; ConflictError when the school already has one.
   * `live`: the live-connection table, where the same transaction makes the
   * session's event-number item (`eventSequence.begun`); without it, the
   * session's first event makes it (`eventSequence.next`).
   */
  async create(
    db: Db,
    input: Omit<PickupSession, 'id' | 'status' | 'endedAt'>,
    recording: Recording,
    live?: Db,
  ): Promise<PickupSession> {
    const id = await nextId(db, 'session');
    const session: PickupSession = { id, ...input, status: 'active', endedAt: null };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: { ...activeKey(input.schoolId), sessionId: id, entity: 'activeSession' },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: db.table,
                Item: {
                  ...key(id),
                  gsi1pk: `SCHOOL#${input.schoolId}#SESSIONS`,
                  gsi1sk: `${input.startTime}#${pad(id)}`,
                  gsi2pk: 'ACTIVE_SESSIONS',
                  gsi2sk: `${input.endTime}#${pad(id)}`,
                  entity: 'session',
                  ...session,
                  visitsMarked: true,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...eventPuts(
              db,
              { schoolId: input.schoolId, sessionId: id },
              new Date().toISOString(),
              [{ kind: 'session_started', entries: [] }],
              recording,
            ),
            ...(live ? [eventSequence.begun(live, id)] : []),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) {
        throw new ConflictError(
          'A pickup session is already active for this school. End it before starting a new one.',
        );
      }
      throw error;
    }
    return session;
  },

  /** `get` as a keyed read (`keyed-read.ts`), in a BatchGetItem shared with others. */
  keyed(id: number, { consistent = true } = {}): KeyedRead<PickupSession | undefined> {
    return {
      keys: [key(id)],
      consistent,
      from: (found) => {
        const item = itemAt(found, key(id));
        return item ? fromItem(item) : undefined;
      },
    };
  },

  /**
   * A session by id; `consistent: false` for a reader that polls and may see
   * a change of the last second late (half the read units).
   */
  async get(db: Db, id: number, { consistent = true } = {}): Promise<PickupSession | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(id), ConsistentRead: consistent }),
    );
    return Item ? fromItem(Item) : undefined;
  },

  /** The school's active session (whether or not its end time has passed). */
  async active(db: Db, schoolId: number): Promise<PickupSession | undefined> {
    const sessionId = await pickupSessions.activeId(db, schoolId);
    return sessionId === undefined ? undefined : pickupSessions.get(db, sessionId);
  },

  /** The id of the school's active session, without reading the session (a caller reads it alongside its lists). */
  async activeId(db: Db, schoolId: number, { consistent = true } = {}): Promise<number | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: activeKey(schoolId), ConsistentRead: consistent }),
    );
    return Item ? (Item.sessionId as number) : undefined;
  },

  /** The school's sessions, newest first. */
  async listBySchool(db: Db, schoolId: number, limit = 100): Promise<PickupSession[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#SESSIONS` },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map(fromItem);
  },

  /** The school's sessions, newest first, a page at a time (`cursor` from the previous page). */
  async pageBySchool(
    db: Db,
    schoolId: number,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: PickupSession[]; next: string | null }> {
    const gsi1pk = `SCHOOL#${schoolId}#SESSIONS`;
    const start = decodeCursor(
      options.cursor,
      { gsi1pk },
      ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
      (key) => /^SESSION#\d+$/.test(String(key.pk)) && key.sk === 'SESSION',
    );
    const { items, last } = await queryPage(
      db,
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ScanIndexForward: false,
      },
      {
        limit: options.limit,
        ...(start ? { start } : {}),
        keyOf: (item) => ({ pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }),
      },
    );
    return { items: items.map(fromItem), next: encodeCursor(last) };
  },

  /** The school's sessions that started in [from, to), oldest first (all pages). */
  async startedBetween(db: Db, schoolId: number, from: string, to: string): Promise<PickupSession[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#SESSIONS`, ':from': from, ':to': to },
    });
    return items.map(fromItem);
  },

  /**
   * Ends an active session and frees the school's active slot, with its
   * record (`session_auto_ended` when the schedule ends it), in one
   * transaction. Answers undefined when it was not active (already ended).
   */
  async end(
    db: Db,
    session: PickupSession,
    recording: Recording,
    endedAt = new Date().toISOString(),
  ): Promise<PickupSession | undefined> {
    const kind =
      'kind' in recording.actor && recording.actor.kind === 'schedule'
        ? 'session_auto_ended'
        : 'session_ended';
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: db.table,
                Key: activeKey(session.schoolId),
                ConditionExpression: 'sessionId = :id',
                ExpressionAttributeValues: { ':id': session.id },
              },
            },
            {
              Update: {
                TableName: db.table,
                Key: key(session.id),
                UpdateExpression: 'SET #status = :ended, endedAt = :endedAt REMOVE gsi2pk, gsi2sk',
                ConditionExpression: '#status = :active',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':ended': 'ended', ':active': 'active', ':endedAt': endedAt },
              },
            },
            ...eventPuts(
              db,
              { schoolId: session.schoolId, sessionId: session.id },
              endedAt,
              [{ kind, entries: [] }],
              recording,
            ),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    return { ...session, status: 'ended', endedAt };
  },

  /** Active sessions whose end time is before `now`: one Query on gsi2. */
  async overdue(db: Db, now = new Date()): Promise<PickupSession[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :now',
      ExpressionAttributeValues: { ':pk': 'ACTIVE_SESSIONS', ':now': now.toISOString() },
    });
    return items.map(fromItem);
  },
};
