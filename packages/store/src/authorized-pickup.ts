import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthorizedPickup } from '@curbside/domain';
import { deletePartition } from './batch-write';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { isConditionFailure } from './query';

/**
 * The adults a family allows to collect a child (issue 29):
 * `SCHOOL#{schoolId}#STUDENT#{studentId}#PICKUPS` / `PICKUP#{id:010}` — a
 * child's list is one Query (the parents' page, the staff screens). A
 * one-day delegate's item expires by TTL two days after its day; its day is
 * also checked in code.
 */
const partition = (schoolId: number, studentId: number) => `SCHOOL#${schoolId}#STUDENT#${studentId}#PICKUPS`;
const key = (schoolId: number, studentId: number, id: number) => ({
  pk: partition(schoolId, studentId),
  sk: `PICKUP#${String(id).padStart(10, '0')}`,
});
const DAY_SECONDS = 24 * 60 * 60;

export const authorizedPickups = {
  /** Erases every adult authorized to pick up a student (issue 55). */
  async eraseOfStudent(db: Db, schoolId: number, studentId: number): Promise<void> {
    await deletePartition(db, partition(schoolId, studentId));
  },

  /** Adds a person, on condition that the child's list has fewer than `max` (counted by the caller's read). */
  async create(db: Db, input: Omit<AuthorizedPickup, 'id'>): Promise<AuthorizedPickup> {
    const pickup = { ...input, id: await nextId(db, 'authorizedPickup') };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...key(pickup.schoolId, pickup.studentId, pickup.id),
          entity: 'authorizedPickup',
          ...pickup,
          ...(pickup.onDate
            ? { ttl: Math.ceil(Date.parse(`${pickup.onDate}T00:00:00Z`) / 1000) + 3 * DAY_SECONDS }
            : {}),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return pickup;
  },

  async listByStudent(db: Db, schoolId: number, studentId: number): Promise<AuthorizedPickup[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :pickup)',
        ExpressionAttributeValues: { ':pk': partition(schoolId, studentId), ':pickup': 'PICKUP#' },
      }),
    );
    return Items.map((item) => stripKeys<AuthorizedPickup>(item));
  },

  /** Removes one; false when it was not there. */
  async delete(db: Db, pickup: Pick<AuthorizedPickup, 'schoolId' | 'studentId' | 'id'>): Promise<boolean> {
    try {
      await db.doc.send(
        new DeleteCommand({
          TableName: db.table,
          Key: key(pickup.schoolId, pickup.studentId, pickup.id),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};
