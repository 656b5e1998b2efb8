import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteAll, putAll } from './batch-write';
import type { Db } from './db';
import { meter } from './meter';
import { isConditionFailure, queryAll } from './query';

/**
 * WebSocket connections, in the live-connection table (`connectionTableDefinition`),
 * never in the data table. Every function here takes that table's `Db`.
 * Connection: `CONN#{connectionId}` / `CONN` with the channels it joined, its
 *   user and the sign-in session it was opened with.
 * Channel member: `CHANNEL#{channel}` / `CONN#{connectionId}`: fan-out is one
 *   Query on the channel's partition, never a Scan.
 * User's connection: `USER#{userId}` / `CONN#{connectionId}` (signed-in
 *   connections only), with the session: ending a user's sign-ins finds the
 *   connections to close with one Query.
 * School's connection (issue 54): `SCHOOL#{schoolId}` / `CONN#{connectionId}`
 *   with the connection's channels, for the connections that hear of a
 *   school's car line (its staff pages, its displays, the parents of its
 *   children): a change of the line finds them all with one Query and matches
 *   the channels in the handler (ADR 0027).
 * A staff connection's subscription (issue 31) is its channels: `rechannel`
 *   swaps some of them (the CONN row's list, the member rows and the school
 *   rows), so `remove` still finds every membership.
 * All carry a TTL of 2 hours 10 minutes: API Gateway closes every
 * connection after 2 hours, and `$disconnect` is best effort.
 */
/** The most items one DynamoDB transaction may write. */
const MAX_TRANSACTION_ITEMS = 100;

export const CONNECTION_TTL_SECONDS = 2 * 60 * 60 + 10 * 60;

export interface Connection {
  connectionId: string;
  channels: string[];
  userId: number | null;
  /** The sign-in session the connection was opened with (`sessionIdOf(token)`), if any. */
  sessionId?: string | null;
  connectedAt: string;
  /** Opened with one of a school's bus links: which school, driver or map. */
  busLink?: { schoolId: number; kind: 'driver' | 'map' } | null;
  /** The schools whose car line it hears of: listed under each (`ofSchool`). */
  schools?: readonly number[];
  /**
   * A parent's page: the children it hears of (their links as `$connect` read
   * them), kept on its row under each child's school; `forgetChildren` takes
   * one off when its link is removed.
   */
  children?: ReadonlyArray<{ schoolId: number; studentId: number }>;
}

/** A connection as a school's fan-out finds it: its id and its channels. */
export interface SchoolConnection {
  connectionId: string;
  channels: string[];
  /** A parent's page: the children of the school it hears of (none for anyone else). */
  studentIds: number[];
}

export interface UserConnection {
  connectionId: string;
  sessionId: string | null;
}

const key = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'CONN' });
const memberKey = (channel: string, connectionId: string) => ({
  pk: `CHANNEL#${channel}`,
  sk: `CONN#${connectionId}`,
});
const userKey = (userId: number, connectionId: string) => ({
  pk: `USER#${userId}`,
  sk: `CONN#${connectionId}`,
});
const schoolKey = (schoolId: number, connectionId: string) => ({
  pk: `SCHOOL#${schoolId}`,
  sk: `CONN#${connectionId}`,
});
const schoolRow = (
  schoolId: number,
  connectionId: string,
  channels: readonly string[],
  ttl: number,
  studentIds: readonly number[] = [],
) => ({
  ...schoolKey(schoolId, connectionId),
  entity: 'schoolConnection',
  connectionId,
  channels,
  ttl,
  // A number set (an empty one cannot be stored): `forgetChildren` deletes from it in place.
  ...(studentIds.length > 0 ? { studentIds: new Set(studentIds) } : {}),
});
const studentIdsOf = (item: Record<string, unknown>): number[] => [
  ...((item.studentIds as Iterable<number> | undefined) ?? []),
];
const schoolsOf = (item: Record<string, unknown> | undefined): number[] =>
  (item?.schools as number[] | undefined) ?? [];

const unexpired = (items: Record<string, unknown>[]) => {
  const now = Math.floor(Date.now() / 1000);
  return items.filter((item) => typeof item.ttl !== 'number' || item.ttl >= now);
};

/**
 * The rows of a partition whose TTL has not passed (one Query, all pages), with `attributes` only;
 * `filter`: only the rows it holds for, with its values.
 */
const liveRows = async (
  db: Db,
  pk: string,
  attributes: string,
  filter?: { expression: string; values: Record<string, unknown> },
) =>
  unexpired(
    await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk, ...filter?.values },
      ProjectionExpression: `${attributes}, #ttl`,
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ...(filter ? { FilterExpression: filter.expression } : {}),
    }),
  );

/** The most children a school's Query names in its filter (each a `contains`); more read every row. */
const MAX_CHILDREN_FILTERED = 50;

/**
 * The school rows a change's fan-out needs when it can concern only these
 * children's parents: every row that hears of no child (staff pages,
 * displays) and the parents' pages that hear of one of them.
 */
const hearingOf = (children: readonly number[]) => ({
  expression: [
    'attribute_not_exists(studentIds)',
    ...children.map((_, index) => `contains(studentIds, :child${index})`),
  ].join(' OR '),
  values: Object.fromEntries(children.map((studentId, index) => [`:child${index}`, studentId])),
});

export const connections = {
  async put(db: Db, connection: Connection): Promise<void> {
    const ttl = Math.floor(Date.now() / 1000) + CONNECTION_TTL_SECONDS;
    const sessionId = connection.sessionId ?? null;
    const schools = [...new Set(connection.schools ?? [])];
    const children = connection.children ?? [];
    const childrenIn = (schoolId: number) =>
      children.filter((child) => child.schoolId === schoolId).map((child) => child.studentId);
    const items = [
      { ...key(connection.connectionId), entity: 'connection', ttl, ...connection, sessionId, schools },
      ...schools.map((schoolId) =>
        schoolRow(schoolId, connection.connectionId, connection.channels, ttl, childrenIn(schoolId)),
      ),
      ...connection.channels.map((channel) => ({
        ...memberKey(channel, connection.connectionId),
        entity: 'channelMember',
        connectionId: connection.connectionId,
        ttl,
      })),
      ...(connection.userId !== null
        ? [
            {
              ...userKey(connection.userId, connection.connectionId),
              entity: 'userConnection',
              connectionId: connection.connectionId,
              sessionId,
              ttl,
            },
          ]
        : []),
    ];
    await putAll(db, items);
  },

  async get(db: Db, connectionId: string): Promise<Connection | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(connectionId) }));
    if (!Item || (typeof Item.ttl === 'number' && Item.ttl * 1000 < Date.now())) return undefined;
    return {
      connectionId: Item.connectionId,
      channels: Item.channels,
      userId: Item.userId ?? null,
      sessionId: Item.sessionId ?? null,
      connectedAt: Item.connectedAt,
      busLink: Item.busLink ?? null,
      schools: schoolsOf(Item),
    };
  },

  /** Connection ids in a channel, skipping rows whose TTL has passed. */
  async inChannel(db: Db, channel: string): Promise<string[]> {
    return (await liveRows(db, `CHANNEL#${channel}`, 'connectionId')).map(
      (item) => item.connectionId as string,
    );
  },

  /**
   * The connections that hear of a school's car line, with their channels
   * (one Query of the school's partition, all pages, TTL checked in code):
   * the fan-out of a change matches the channels itself (ADR 0027).
   * `children`: a change that concerns only these children's parents (none:
   * no parent) gets the rows that hear of no child and the parents' pages
   * that hear of one of them, filtered by DynamoDB (h54zf: the same rows are
   * read and billed, a few sent and parsed instead of every parent's page).
   * Up to `MAX_CHILDREN_FILTERED`; more read every row.
   */
  async ofSchool(
    db: Db,
    schoolId: number,
    { children }: { children?: readonly number[] } = {},
  ): Promise<SchoolConnection[]> {
    const named = children && [...new Set(children)];
    const only = named && named.length <= MAX_CHILDREN_FILTERED ? named : undefined;
    const rows = await liveRows(
      db,
      `SCHOOL#${schoolId}`,
      'connectionId, channels, studentIds',
      only && hearingOf(only),
    );
    // The rows a fan-out received and parsed (the Query reads, and is billed for, every row).
    meter.add('live.schoolRows', rows.length);
    return rows.map((item) => ({
      connectionId: item.connectionId as string,
      channels: (item.channels as string[] | undefined) ?? [],
      studentIds: studentIdsOf(item),
    }));
  },

  /**
   * A parent's links to some children of a school were removed: each open
   * connection of theirs stops hearing of those children (one Query of the
   * user's connections, then one UpdateItem per connection, at once, deleting
   * the ids from its school row's set; a connection gone meanwhile is
   * skipped). The parent's page hears nothing more of them from the next change.
   * `only`: these connections of the user, without the Query.
   */
  async forgetChildren(
    db: Db,
    userId: number,
    schoolId: number,
    studentIds: readonly number[],
    only?: readonly string[],
  ) {
    if (studentIds.length === 0) return;
    const open = only ?? (await connections.ofUser(db, userId)).map((connection) => connection.connectionId);
    await Promise.all(
      open.map((connectionId) =>
        db.doc
          .send(
            new UpdateCommand({
              TableName: db.table,
              Key: schoolKey(schoolId, connectionId),
              UpdateExpression: 'DELETE studentIds :gone',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':gone': new Set(studentIds) },
            }),
          )
          .catch((error) => {
            if (!isConditionFailure(error)) throw error;
          }),
      ),
    );
  },

  /** A user's open connections (one Query), with the session each was opened with. */
  async ofUser(db: Db, userId: number): Promise<UserConnection[]> {
    return (await liveRows(db, `USER#${userId}`, 'connectionId, sessionId')).map((item) => ({
      connectionId: item.connectionId as string,
      sessionId: (item.sessionId as string | undefined) ?? null,
    }));
  },

  /**
   * Swaps channels of an open connection: `change` gets its channels as they
   * are and answers the ones it keeps, leaves and joins. The CONN row and the
   * member rows change in one transaction, held to the list they were read
   * with (tried again when another change came between), with the
   * connection's TTL; two changes at once never leave members of the one
   * that lost. `order` (a client's count of its subscribe messages) drops a
   * change older than one already made: a connection's messages are handled
   * by separate invocations, in no set order. Answers the channels now (and
   * whether this change was dropped as `stale`), or undefined when the
   * connection is gone.
   */
  async rechannel(
    db: Db,
    connectionId: string,
    change: (channels: readonly string[]) => readonly string[],
    order?: number,
  ): Promise<{ channels: string[]; stale: boolean } | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const { Item } = await db.doc.send(
        new GetCommand({ TableName: db.table, Key: key(connectionId), ConsistentRead: true }),
      );
      if (!Item || (typeof Item.ttl === 'number' && Item.ttl * 1000 < Date.now())) return undefined;
      const lastOrder = typeof Item.subscribeOrder === 'number' ? Item.subscribeOrder : undefined;
      const before: string[] = Item.channels ?? [];
      if (order !== undefined && lastOrder !== undefined && order <= lastOrder)
        return { channels: before, stale: true };
      const after = [...new Set(change(before))];
      const revision = typeof Item.revision === 'number' ? Item.revision : 0;
      const ttl = Item.ttl as number;
      const joined = after.filter((channel) => !before.includes(channel));
      const left = before.filter((channel) => !after.includes(channel));
      const update = {
        TableName: db.table,
        Key: key(connectionId),
        UpdateExpression: `SET channels = :after, revision = :next${order === undefined ? '' : ', subscribeOrder = :order'}`,
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(revision) OR revision = :revision)',
        ExpressionAttributeValues: {
          ':after': after,
          ':next': revision + 1,
          ':revision': revision,
          ...(order === undefined ? {} : { ':order': order }),
        },
      };
      const joinedRows = joined.map((channel) => ({
        ...memberKey(channel, connectionId),
        entity: 'channelMember',
        connectionId,
        ttl,
      }));
      const leftKeys = left.map((channel) => memberKey(channel, connectionId));
      // A staff connection's (only staff subscribe): no children on its school rows to keep.
      const schoolRows = schoolsOf(Item).map((schoolId) => schoolRow(schoolId, connectionId, after, ttl));
      try {
        if (1 + joinedRows.length + leftKeys.length + schoolRows.length <= MAX_TRANSACTION_ITEMS) {
          await db.doc.send(
            new TransactWriteCommand({
              TransactItems: [
                { Update: update },
                ...[...joinedRows, ...schoolRows].map((Item) => ({ Put: { TableName: db.table, Item } })),
                ...leftKeys.map((Key) => ({ Delete: { TableName: db.table, Key } })),
              ],
            }),
          );
        } else {
          // More than one transaction holds (a switch between two long lists): the row, then its members.
          await db.doc.send(new UpdateCommand(update));
          await putAll(db, [...joinedRows, ...schoolRows]);
          await deleteAll(db, leftKeys);
        }
      } catch (error) {
        if (isConditionFailure(error)) continue;
        throw error;
      }
      return { channels: after, stale: false };
    }
    throw new Error('The connection kept changing; its channels were not changed');
  },

  /**
   * Removes a connection and its channel and user rows, including those of
   * `alsoIn` (the channel a publish found it in), so a membership left over
   * from a partly failed delete is removed too.
   */
  async remove(db: Db, connectionId: string, alsoIn: readonly string[] = []): Promise<void> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(connectionId) }));
    await removeRows(db, connectionId, Item, alsoIn);
  },

  /**
   * Removes a connection that a post found gone (410), unless it connected less than
   * `CONNECTING_GRACE_MS` ago. API Gateway answers 410 to a post while the connection's
   * `$connect` is still running (its rows are written, its socket not open yet): removing
   * them then would leave the screen that opens a moment later deaf until it reconnects.
   * A connection that really ended that young is removed by its `$disconnect`, by a post
   * after the grace, or by the TTL. Answers whether it was removed.
   */
  async removeGone(
    db: Db,
    connectionId: string,
    alsoIn: readonly string[] = [],
    now = Date.now(),
  ): Promise<boolean> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(connectionId) }));
    const connectedAt = Date.parse(String(Item?.connectedAt));
    if (now - connectedAt < CONNECTING_GRACE_MS) return false;
    await removeRows(db, connectionId, Item, alsoIn);
    return true;
  },
};

/**
 * How long a connection's rows are kept though a post found it gone: API Gateway's
 * integration timeout (29 s), the longest a `$connect` can run, and a second more.
 */
export const CONNECTING_GRACE_MS = 30_000;

/** Deletes a connection's row (as read: `item`, if any) and its channel and user rows. */
const removeRows = async (
  db: Db,
  connectionId: string,
  item: Record<string, unknown> | undefined,
  alsoIn: readonly string[],
) => {
  const channels = new Set<string>([...((item?.channels as string[] | undefined) ?? []), ...alsoIn]);
  const userId = item?.userId as number | null | undefined;
  await deleteAll(db, [
    key(connectionId),
    ...[...channels].map((channel) => memberKey(channel, connectionId)),
    ...(typeof userId === 'number' ? [userKey(userId, connectionId)] : []),
    ...schoolsOf(item).map((schoolId) => schoolKey(schoolId, connectionId)),
  ]);
};
