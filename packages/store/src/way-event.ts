import { randomInt } from 'node:crypto';
import type { WayEvent } from '@curbside/domain';
import type { Db } from './db';
import { stripKeys } from './ids';
import { queryAll } from './query';

/**
 * The record of a student's ways home (issue 51): every weekly-plan edit,
 * dated change, decision and cancellation, append-only, one partition per
 * student: `SCHOOL#{schoolId}#STUDENT#{studentId}#WAYS` / `{at}#{nonce}`
 * (oldest first by sort key). Each is written by `wayEventPut` in the same
 * transaction as its change, only if its key is new; none is ever updated or
 * deleted here: they leave by TTL (the school's retention days).
 */
const partition = (schoolId: number, studentId: number) => `SCHOOL#${schoolId}#STUDENT#${studentId}#WAYS`;
const DAY_SECONDS = 24 * 60 * 60;
const NONCE = 'abcdefghijklmnopqrstuvwxyz0123456789';
const nonce = () => Array.from({ length: 6 }, () => NONCE[randomInt(NONCE.length)]).join('');

/** The event's item (its id made here). */
export const wayEventItem = (event: Omit<WayEvent, 'id'>, retentionDays: number) => {
  const sk = `${event.at}#${nonce()}`;
  return {
    pk: partition(event.schoolId, event.studentId),
    sk,
    entity: 'wayEvent',
    ...event,
    id: sk,
    ttl: Math.ceil(Date.parse(event.at) / 1000) + retentionDays * DAY_SECONDS,
  };
};

/** The Put of an event for its change's transaction (never an overwrite). */
export const wayEventPut = (db: Db, event: Omit<WayEvent, 'id'>, retentionDays: number) => ({
  Put: {
    TableName: db.table,
    Item: wayEventItem(event, retentionDays),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export const wayEvents = {
  /** A student's way-home record, newest first (at most `limit`); TTL-expired events left out. */
  async ofStudent(db: Db, schoolId: number, studentId: number, limit = 100): Promise<WayEvent[]> {
    const items = await queryAll(
      db,
      {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(schoolId, studentId) },
        ScanIndexForward: false,
      },
      limit,
    );
    const now = Date.now();
    return items
      .filter((item) => typeof item.ttl !== 'number' || item.ttl * 1000 > now)
      .map((item) => stripKeys<WayEvent>(item));
  },
};
