import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Arrival, ArrivalState } from '@curbside/domain';
import { rewritePartition } from './batch-write';
import type { Db } from './db';
import { stripKeys } from './ids';
import { isConditionFailure, queryAll } from './query';

/**
 * A family's arrival announcement (issue 53, docs/adr/0023-arrivals.md):
 * `SESSION#{sessionId}#ARRIVALS` / `PARENT#{parentId:010}`, one per parent
 * and session (announcing again updates it). It holds what staff see (the
 * parent's name, the children, the car) and never a position. It expires
 * with its session: `ttl` is the session's end plus an hour, and nothing
 * reads the arrivals of a session that no longer runs.
 */
const partition = (sessionId: number) => `SESSION#${sessionId}#ARRIVALS`;
const key = (sessionId: number, parentId: number) => ({
  pk: partition(sessionId),
  sk: `PARENT#${String(parentId).padStart(10, '0')}`,
});
/** An arrival outlives its session's planned end by an hour (TTL deletes late anyway). */
const KEPT_AFTER_END_S = 60 * 60;

type Stored = Arrival & { parentId: number };
const toArrival = (item: Record<string, unknown>): Arrival => {
  const { parentId: _, ...arrival } = stripKeys<Stored>(item);
  return arrival;
};

/** What an announcement sets (the rest is kept from an earlier one: id, first time, the queued visit). */
export interface Announcement {
  sessionId: number;
  schoolId: number;
  parentId: number;
  parentName: string;
  state: ArrivalState;
  students: Arrival['students'];
  vehicleNumber: string | null;
  vehicleType: Arrival['vehicleType'];
  at: string;
  /** The session's planned end: the arrival expires an hour after it. */
  sessionEndsAt: string;
}

export const arrivals = {
  /** The parent's arrival in a session, if any (consistent: an announcement reads it before it queues). */
  async get(db: Db, sessionId: number, parentId: number): Promise<Arrival | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(sessionId, parentId), ConsistentRead: true }),
    );
    return Item ? toArrival(Item) : undefined;
  },

  /** A student's erasure (issue 55): each arrival of the session rewritten by `rewrite` (changed ones only); answers how many. */
  async rewriteSession(
    db: Db,
    sessionId: number,
    rewrite: (item: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<number> {
    return rewritePartition(db, partition(sessionId), rewrite);
  },

  /** A session's arrivals, newest change first (one partition, all pages). */
  async ofSession(db: Db, sessionId: number): Promise<Arrival[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition(sessionId) },
    });
    return items.map(toArrival).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  },

  /**
   * Announces (or announces again): one UpdateItem that keeps the arrival's
   * id, first time and queued visit, and sets the rest. Answers the arrival
   * as it is now.
   */
  async announce(db: Db, announcement: Announcement): Promise<Arrival> {
    const { Attributes } = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key(announcement.sessionId, announcement.parentId),
        UpdateExpression: [
          'SET id = if_not_exists(id, :id), announcedAt = if_not_exists(announcedAt, :at)',
          'entryId = if_not_exists(entryId, :null), queuedBy = if_not_exists(queuedBy, :null)',
          'entity = :entity, sessionId = :sessionId, schoolId = :schoolId, parentId = :parentId',
          'parentName = :parentName, #state = :state, studentIds = :studentIds, students = :students',
          'vehicleNumber = :vehicleNumber, vehicleType = :vehicleType, updatedAt = :at, #ttl = :ttl',
        ].join(', '),
        ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':id': randomUUID(),
          ':at': announcement.at,
          ':null': null,
          ':entity': 'arrival',
          ':sessionId': announcement.sessionId,
          ':schoolId': announcement.schoolId,
          ':parentId': announcement.parentId,
          ':parentName': announcement.parentName,
          ':state': announcement.state,
          ':studentIds': announcement.students.map((student) => student.id),
          ':students': announcement.students,
          ':vehicleNumber': announcement.vehicleNumber,
          ':vehicleType': announcement.vehicleType,
          ':ttl': Math.ceil(Date.parse(announcement.sessionEndsAt) / 1000) + KEPT_AFTER_END_S,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toArrival(Attributes ?? {});
  },

  /**
   * Notes the visit queued for the arrival (`auto`): only while it has none,
   * so two announcements racing record one visit. Answers the arrival as it
   * is now, or undefined when another visit was noted first.
   */
  async noteQueued(
    db: Db,
    sessionId: number,
    parentId: number,
    entryId: string,
    queuedBy: Arrival['queuedBy'],
  ): Promise<Arrival | undefined> {
    try {
      const { Attributes } = await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: key(sessionId, parentId),
          UpdateExpression: 'SET entryId = :entryId, queuedBy = :queuedBy',
          ConditionExpression: 'attribute_exists(pk) AND attribute_type(entryId, :nullType)',
          ExpressionAttributeValues: { ':entryId': entryId, ':queuedBy': queuedBy, ':nullType': 'NULL' },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? toArrival(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },
};
