import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Alert, AlertAcknowledgement, Recording } from '@curbside/domain';
import type { Db } from './db';
import { alertEventPuts } from './dismissal-event';
import { nextId, stripKeys } from './ids';
import { isConditionFailure } from './query';

/**
 * Alert: `ALERT#{id}` / `ALERT`.
 * Alerts of a school's session: gsi1 `SESSION#{sessionId}#ALERTS` (or
 *   `SCHOOL#{schoolId}#ALERTS` without a session) / `{createdAt}#{id:010}`.
 * Active alerts of a school, session or not (sparse: set when raised, removed
 *   when dismissed): gsi2 `SCHOOL#{schoolId}#ACTIVE_ALERTS` / `{createdAt}#{id:010}`.
 * Acknowledgements: the list `acknowledgements` and the number set
 *   `acknowledgedBy` (user ids) that makes "I'm on it" once per user a condition.
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
const activeKey = (alert: Pick<Alert, 'schoolId' | 'createdAt' | 'id'>) => ({
  gsi2pk: `SCHOOL#${alert.schoolId}#ACTIVE_ALERTS`,
  gsi2sk: `${alert.createdAt}#${String(alert.id).padStart(10, '0')}`,
});
/** An alert item as it leaves the store: keys and the acknowledgement set stripped. */
const toAlert = (item: Record<string, unknown>): Alert => {
  const { acknowledgedBy, ...rest } = item;
  return stripKeys<Alert>(rest);
};
const listKey = (alert: Pick<Alert, 'sessionId' | 'schoolId'>) =>
  alert.sessionId !== null ? `SESSION#${alert.sessionId}#ALERTS` : `SCHOOL#${alert.schoolId}#ALERTS`;

export type NewAlert = Omit<Alert, 'id' | 'status' | 'createdAt' | 'dismissedAt' | 'acknowledgements'>;

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
      acknowledgements: [],
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
                  ...activeKey(alert),
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
    return Item ? toAlert(Item) : undefined;
  },

  /**
   * Dismisses an active alert and frees its slot, noting who (`by`: a staff
   * member; a driver's page shows "Closed by …"); undefined when it was not active.
   */
  async dismiss(
    db: Db,
    alert: Alert,
    recording: Recording,
    by: Alert['dismissedBy'] = null,
  ): Promise<Alert | undefined> {
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
                UpdateExpression:
                  'SET #status = :dismissed, dismissedAt = :at, dismissedBy = :by REMOVE gsi2pk, gsi2sk',
                ConditionExpression: '#status = :active',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':dismissed': 'dismissed',
                  ':active': 'active',
                  ':at': dismissedAt,
                  ':by': by,
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
    return { ...alert, status: 'dismissed', dismissedAt, dismissedBy: by };
  },

  /**
   * A staff member's "I'm on it": appended once per user while the alert is
   * active. Undefined when this user already acknowledged it or it is no
   * longer active (the caller reads it again).
   */
  /**
   * "I'm on it": the staff member joins the alert's acknowledgements, once (a second press,
   * or an alert no longer active, answers undefined). A session's alert records it in the
   * same transaction.
   */
  async acknowledge(
    db: Db,
    alert: Alert,
    ack: AlertAcknowledgement,
    recording: Recording,
  ): Promise<Alert | undefined> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: key(alert.id),
                UpdateExpression:
                  'SET acknowledgements = list_append(if_not_exists(acknowledgements, :none), :ack) ADD acknowledgedBy :users',
                ConditionExpression: '#status = :active AND NOT contains(acknowledgedBy, :user)',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':none': [],
                  ':ack': [ack],
                  ':users': new Set([ack.userId]),
                  ':user': ack.userId,
                  ':active': 'active',
                },
              },
            },
            ...alertEventPuts(db, alert, 'alert_acknowledged', ack.at, recording),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    return this.get(db, alert.id);
  },

  /** A school's active alerts, of any session or none, newest first: the staff screens' banner. */
  async activeOfSchool(db: Db, schoolId: number): Promise<Alert[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#ACTIVE_ALERTS` },
        ScanIndexForward: false,
      }),
    );
    return Items.map(toAlert);
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
  return Items.map(toAlert);
};
