import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Alert, type AlertAcknowledgement, alertRepeats, type Recording } from '@curbside/domain';
import type { Db } from './db';
import { alertEventPuts } from './dismissal-event';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { isConditionFailure } from './query';
import { TTL_ATTRIBUTE } from './table';

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
 * Open emergencies, every school's (issue 55): `OPEN_EMERGENCIES` / `{createdAt}#{id:010}`
 *   → alertId, written with an emergency; the every-minute watch reads those
 *   raised 2 minutes ago or more, counts the ones nobody acknowledged (the
 *   stack's alarm) and deletes the others' entries. Kept a day at most (TTL).
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

const OPEN_EMERGENCIES = 'OPEN_EMERGENCIES';
const openEmergencyKey = (alert: Pick<Alert, 'createdAt' | 'id'>) => ({
  pk: OPEN_EMERGENCIES,
  sk: `${alert.createdAt}#${String(alert.id).padStart(10, '0')}`,
});
const OPEN_EMERGENCY_SECONDS = 24 * 60 * 60;

export const alerts = {
  /** The active alert of a type at a location in a session, if any. */
  async activeAt(db: Db, slot: SlotOf): Promise<Alert | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: slotKey(slot), ConsistentRead: true }),
    );
    return Item ? alerts.get(db, Item.alertId as number) : undefined;
  },

  /**
   * The id of the alert active in a slot, if any, as a keyed read (`keyed-read.ts`,
   * in the caller's sign-in read); `activeAt` reads the alert after it.
   */
  keyedSlot(slot: SlotOf): KeyedRead<number | undefined> {
    return {
      keys: [slotKey(slot)],
      consistent: true,
      from: (found) => itemAt(found, slotKey(slot))?.alertId as number | undefined,
    };
  },

  /** A new alert's id (ids are unique, not dense: one taken and not used leaves a gap). */
  newId(db: Db): Promise<number> {
    return nextId(db, 'alert');
  },

  /**
   * Raises an alert; undefined when the slot is already taken (someone raised
   * it first). `id`: one taken beforehand (`newId`, while its caller's reads ran).
   */
  async raise(db: Db, input: NewAlert, recording: Recording, id?: number): Promise<Alert | undefined> {
    const alert: Alert = {
      ...input,
      id: id ?? (await nextId(db, 'alert')),
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
            ...(alert.type === 'emergency'
              ? [
                  {
                    Put: {
                      TableName: db.table,
                      Item: {
                        ...openEmergencyKey(alert),
                        alertId: alert.id,
                        entity: 'openEmergency',
                        [TTL_ATTRIBUTE]:
                          Math.ceil(Date.parse(alert.createdAt) / 1000) + OPEN_EMERGENCY_SECONDS,
                      },
                    },
                  },
                ]
              : []),
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

  /** `get` as a keyed read (`keyed-read.ts`), in a BatchGetItem shared with others (the caller's sign-in read). */
  keyed(id: number): KeyedRead<Alert | undefined> {
    return {
      keys: [key(id)],
      consistent: true,
      from: (found) => {
        const item = itemAt(found, key(id));
        return item ? toAlert(item) : undefined;
      },
    };
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
   * active, in the same transaction as its record's event (a session's
   * alert). Answers the alert as read with the acknowledgement added: the
   * write holds only while its acknowledgements are those read, and someone
   * else's meanwhile reads it again and tries once more (up to 3 times), so
   * no second read after the write (ADR 0027). Undefined when this user
   * already acknowledged it or it is no longer active (the caller reads it again).
   */
  async acknowledge(
    db: Db,
    alert: Alert,
    ack: AlertAcknowledgement,
    recording: Recording,
    attempt = 1,
  ): Promise<Alert | undefined> {
    const known = alert.acknowledgements?.length ?? 0;
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
                // The acknowledgements as read: the answer is the alert as read with this one added.
                ConditionExpression: `#status = :active AND NOT contains(acknowledgedBy, :user) AND ${
                  known === 0
                    ? '(attribute_not_exists(acknowledgements) OR size(acknowledgements) = :known)'
                    : 'size(acknowledgements) = :known'
                }`,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':none': [],
                  ':ack': [ack],
                  ':users': new Set([ack.userId]),
                  ':user': ack.userId,
                  ':active': 'active',
                  ':known': known,
                },
              },
            },
            ...alertEventPuts(db, alert, 'alert_acknowledged', ack.at, recording),
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Not active, already acknowledged by them, or someone else acknowledged it meanwhile: read it again.
      const now = await alerts.get(db, alert.id);
      const again =
        now?.status === 'active' &&
        !(now.acknowledgements ?? []).some((earlier) => earlier.userId === ack.userId) &&
        (now.acknowledgements ?? []).length !== known;
      return again && attempt < 3 ? alerts.acknowledge(db, now, ack, recording, attempt + 1) : undefined;
    }
    return { ...alert, acknowledgements: [...(alert.acknowledgements ?? []), ack] };
  },

  /**
   * Emergencies raised at `raisedBefore` or earlier that are still active and
   * that nobody has acknowledged, every school's (the every-minute watch). The
   * entries of those acknowledged or dismissed are deleted on the way.
   */
  async unansweredEmergencies(db: Db, raisedBefore: string): Promise<Alert[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk AND sk <= :before',
        ExpressionAttributeValues: { ':pk': OPEN_EMERGENCIES, ':before': `${raisedBefore}#~` },
      }),
    );
    const unanswered: Alert[] = [];
    await Promise.all(
      Items.map(async (item) => {
        const alert = await alerts.get(db, item.alertId as number);
        if (alert && alertRepeats(alert)) {
          unanswered.push(alert);
          return;
        }
        await db.doc.send(new DeleteCommand({ TableName: db.table, Key: { pk: item.pk, sk: item.sk } }));
      }),
    );
    return unanswered.sort((a, b) => a.id - b.id);
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
};
