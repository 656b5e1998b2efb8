import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Alert, Recording } from '@curbside/domain';
import type { Db } from './db';
import { alertEventPuts } from './dismissal-event';
import { nextId, stripKeys } from './ids';
import { isConditionFailure } from './query';

/**
 * Alert: `ALERT#{id}` / `ALERT`.
 * Alerts of a school's session: gsi1 `SESSION#{sessionId}#ALERTS` (or
 *   `SCHOOL#{schoolId}#ALERTS` without a session) / `{createdAt}#{id:010}`.
 * Active slot per session, type and location: `SCHOOL#{schoolId}` /
 *   `ALERT#{sessionId or NONE}#{type}#{location}` → alertId, claimed and
 *   released in the same transaction as the alert changes, so one location
 *   never has two active alerts of one type in a session, and an alert left
 *   active when a session ended never answers for the next session.
 */
const key = (id: number) => ({ pk: `ALERT#${id}`, sk: 'ALERT' });
type SlotOf = Pick<Alert, 'schoolId' | 'sessionId' | 'type' | 'location'>;
const slotKey = ({ schoolId, sessionId, type, location }: SlotOf) => ({
  pk: `SCHOOL#${schoolId}`,
  sk: `ALERT#${sessionId ?? 'NONE'}#${type}#${location.toLowerCase()}`,
});
const listKey = (alert: Pick<Alert, 'sessionId' | 'schoolId'>) =>
  alert.sessionId !== null ? `SESSION#${alert.sessionId}#ALERTS` : `SCHOOL#${alert.schoolId}#ALERTS`;

export type NewAlert = Omit<Alert, 'id' | 'status' | 'createdAt' | 'dismissedAt'>;

export const alerts = {
  /** The active alert of a type at a location in a session, if any. */
  async activeAt(db: Db, slot: SlotOf): Promise<Alert | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: slotKey(slot), ConsistentRead: true }),
    );
    return Item ? alerts.get(db, Item.alertId as number) : undefined;
  },

  /** Raises an alert; undefined when the slot is already taken (someone raised it first). */
  async raise(db: Db, input: NewAlert, recording: Recording): Promise<Alert | undefined> {
    const alert: Alert = {
      ...input,
      id: await nextId(db, 'alert'),
      status: 'active',
      createdAt: new Date().toISOString(),
      dismissedAt: null,
    };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: {
                  ...slotKey(alert),
                  alertId: alert.id,
                  entity: 'alertSlot',
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: db.table,
                Item: {
                  ...key(alert.id),
                  gsi1pk: listKey(alert),
                  gsi1sk: `${alert.createdAt}#${String(alert.id).padStart(10, '0')}`,
                  entity: 'alert',
                  ...alert,
                },
              },
            },
            ...alertEventPuts(db, alert, 'alert_raised', alert.createdAt, recording),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    return alert;
  },

  async get(db: Db, id: number): Promise<Alert | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(id), ConsistentRead: true }),
    );
    return Item ? stripKeys<Alert>(Item) : undefined;
  },

  /** Dismisses an active alert and frees its slot; undefined when it was not active. */
  async dismiss(db: Db, alert: Alert, recording: Recording): Promise<Alert | undefined> {
    const dismissedAt = new Date().toISOString();
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: db.table,
                Key: slotKey(alert),
                ConditionExpression: 'alertId = :id',
                ExpressionAttributeValues: { ':id': alert.id },
              },
            },
            {
              Update: {
                TableName: db.table,
                Key: key(alert.id),
                UpdateExpression: 'SET #status = :dismissed, dismissedAt = :at',
                ConditionExpression: '#status = :active',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':dismissed': 'dismissed',
                  ':active': 'active',
                  ':at': dismissedAt,
                },
              },
            },
            ...alertEventPuts(db, alert, 'alert_dismissed', dismissedAt, recording),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    return { ...alert, status: 'dismissed', dismissedAt };
  },

  /** Active alerts of a session, newest first. */
  async activeForSession(db: Db, sessionId: number): Promise<Alert[]> {
    return activeIn(db, `SESSION#${sessionId}#ALERTS`);
  },

  /** A school's active alerts raised while no session ran (a bus driver's): newest first. */
  async activeWithoutSession(db: Db, schoolId: number): Promise<Alert[]> {
    return activeIn(db, `SCHOOL#${schoolId}#ALERTS`);
  },
};

const activeIn = async (db: Db, list: string): Promise<Alert[]> => {
  const { Items = [] } = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': list, ':active': 'active' },
      ScanIndexForward: false,
    }),
  );
  return Items.map((item) => stripKeys<Alert>(item));
};
