import { type CarLineEvent, channels, driverAlertView } from '@curbside/api';
import {
  type Alert,
  alertMessage,
  ConflictError,
  type createAlertSchema,
  NotFoundError,
  type PickupSession,
  type User,
} from '@curbside/domain';
import { alerts, keyedReads, pickupSessions } from '@curbside/store';
import type { z } from 'zod';
import { knownSchoolOf, type SignInRead } from '../lib/auth';
import { db } from '../lib/context';
import { earlyOr } from '../lib/early-read';
import { countMetric } from '../lib/log';
import { publishToChannel, publishToSession, publishToStaff } from './live-events';
import { recordingBy } from './record';
import { assertSessionOfSchool, ofSchool, sessionOfSchool } from './scope';
import { ownSchoolId } from './tenancy';

/**
 * Tells the school's staff about an alert change: numbered in its session's
 * event sequence when it belongs to one.
 */
const publishAlert = (alert: Alert, event: CarLineEvent) =>
  alert.sessionId === null
    ? publishToStaff(alert.schoolId, event)
    : publishToSession(alert.schoolId, alert.sessionId, event);

/**
 * Tells the school's staff that an alert was dismissed, and, for a bus
 * driver's alert, the school's driver pages who closed it (issue 50: the
 * driver's page says "Closed by …" instead of who was on it).
 */
const tellDismissed = async (alert: Alert, dismissed: Alert | undefined) => {
  const data = { id: alert.id, removed: true } as const;
  const by = dismissed?.dismissedBy;
  const driverView =
    by && dismissed.dismissedAt
      ? { ...data, dismissedBy: { name: by.name, at: dismissed.dismissedAt } }
      : data;
  await Promise.all([
    publishAlert(alert, { type: 'ALERT_DISMISSED', data }),
    alert.source === 'bus_driver'
      ? publishToChannel(channels.drivers(alert.schoolId), { type: 'ALERT_DISMISSED', data: driverView })
      : undefined,
  ]);
};

/** Who dismisses, as the alert keeps it. */
const dismisser = (user: User) => ({ userId: user.id, name: user.name });

/** The alert active in a slot, as its id was read (none: none is). */
const alertIn = async (alertId: number | undefined) =>
  alertId === undefined ? undefined : alerts.get(db, alertId);

/** The toggle's first reads (the session, the slot), and for which school they were read. */
export interface ToggleReads {
  schoolId: number;
  reads: [PickupSession | undefined, number | undefined];
}

/**
 * The toggle's first reads, the session and the alert slot, in the caller's
 * sign-in read (one BatchGetItem) for a staff member this instance signed in
 * at a school; none otherwise, and none for a bus driver's alert.
 */
export const earlyToggle = (
  userId: number,
  { body }: { body: z.output<typeof createAlertSchema> | { source: unknown } },
  signIn: SignInRead,
): Promise<ToggleReads> | undefined => {
  const schoolId = knownSchoolOf(userId);
  if (schoolId === undefined || 'source' in body) return undefined;
  const sessionId = body.sessionId ?? null;
  const slot = { schoolId, sessionId, type: body.type, location: body.location };
  return signIn(
    keyedReads.all(
      sessionId === null ? keyedReads.none(undefined) : pickupSessions.keyed(sessionId),
      alerts.keyedSlot(slot),
    ),
  ).then((reads) => ({ schoolId, reads }));
};

/**
 * The alert toggle: the same type from the same location while one is active
 * dismisses it (`dismissed: true`); otherwise a new alert becomes active.
 */
export const toggleAlert = async (
  user: User,
  input: z.output<typeof createAlertSchema>,
  early?: Promise<ToggleReads>,
): Promise<{ dismissed: boolean; alert: Alert }> => {
  const schoolId = ownSchoolId(user);
  const sessionId = input.sessionId ?? null;
  const slot = { schoolId, sessionId, type: input.type, location: input.location };
  // One round trip: the session's check, the slot's alert and a new alert's id (unused by a dismissal) at once;
  // the session and the slot in the sign-in's own read when started with it (`earlyToggle`), for this school.
  const newId = alerts.newId(db);
  newId.catch(() => undefined);
  const started = await early?.catch(() => undefined);
  const [, firstActive, record] = await Promise.all([
    sessionId === null
      ? undefined
      : started?.schoolId === schoolId
        ? ofSchool(user, sessionId, started.reads[0])
        : sessionOfSchool(user, sessionId),
    started?.schoolId === schoolId ? alertIn(started.reads[1]) : alerts.activeAt(db, slot),
    recordingBy(user, schoolId),
  ]);
  for (let attempt = 0; attempt < 3; attempt++) {
    const active = attempt === 0 ? firstActive : await alerts.activeAt(db, slot);
    if (active) {
      const dismissed = await alerts.dismiss(db, active, record, dismisser(user));
      if (!dismissed) continue;
      await tellDismissed(active, dismissed);
      return { dismissed: true, alert: dismissed };
    }
    const raised = await alerts.raise(
      db,
      {
        sessionId,
        schoolId,
        type: input.type,
        location: input.location,
        message: input.message || alertMessage(input.type, input.location),
        raisedBy: { userId: user.id, name: user.name },
      },
      record,
      attempt === 0 ? await newId : undefined,
    );
    if (!raised) continue;
    countMetric('alertsRaised');
    await publishAlert(raised, { type: 'ALERT_CREATED', data: raised });
    return { dismissed: false, alert: raised };
  }
  throw new ConflictError('Someone else changed this alert at the same moment. Please try again.');
};

/**
 * Without a session: the school's active alerts, of any session or none (every
 * staff screen's banner; an account without a school has none). With one: the
 * session's active alerts, and those raised while no session ran (a bus
 * driver's help before dismissal started) until someone dismisses them.
 */
export const listActiveAlerts = async (
  user: User,
  sessionId?: number,
  early?: Promise<AlertReads>,
): Promise<Alert[]> => {
  if (user.schoolId === null) {
    // An account without a school has no alerts, and no session of a school is theirs (404).
    if (sessionId !== undefined) await assertSessionOfSchool(user, sessionId);
    return [];
  }
  const started = await early?.catch(() => undefined);
  const reads =
    started?.schoolId === user.schoolId && started.sessionId === sessionId
      ? started.reads
      : alertReads(user.schoolId, sessionId);
  if (sessionId === undefined) return reads;
  // One round trip: the lists are read while the session's school is checked (the user's own), answered once it holds.
  const [, list] = await Promise.all([assertSessionOfSchool(user, sessionId), reads]);
  return list;
};

/**
 * The school's active alerts; with a session, the session's and then those
 * raised while none ran (each newest first). One Query of the school's active
 * alerts either way (issue 54: a screen's poll with its session was two, one
 * per list), the lists picked out of it here.
 */
export const alertReads = async (schoolId: number, sessionId: number | undefined): Promise<Alert[]> => {
  const active = await alerts.activeOfSchool(db, schoolId);
  if (sessionId === undefined) return active;
  return [
    ...active.filter((alert) => alert.sessionId === sessionId),
    ...active.filter((alert) => alert.sessionId === null),
  ];
};

/** A poll's alerts, and for which school and session they were read (`http/listAlerts.ts` starts them early). */
export interface AlertReads {
  schoolId: number;
  sessionId: number | undefined;
  reads: Alert[];
}

/**
 * A change's first read, the alert as it stands, started beside the caller's
 * sign-in (a route's `EarlyReads`, ADR 0027) for a staff member this instance
 * signed in at a school; none otherwise.
 */
export const earlyAlert = (userId: number, { params }: { params: { id: number } }, signIn: SignInRead) =>
  knownSchoolOf(userId) === undefined ? undefined : signIn(alerts.keyed(params.id));

const alertOfSchool = async (user: User, id: number, early?: Promise<Alert | undefined>): Promise<Alert> => {
  // The read started beside the sign-in, or again should it have failed.
  const alert = await earlyOr(early, () => alerts.get(db, id));
  if (!alert || alert.schoolId !== user.schoolId) throw new NotFoundError('Alert not found');
  return alert;
};

export const dismissAlert = async (
  user: User,
  id: number,
  early?: Promise<Alert | undefined>,
): Promise<Alert> => {
  const alert = await alertOfSchool(user, id, early);
  if (alert.status !== 'active') return alert;
  const record = await recordingBy(user, alert.schoolId);
  const done = await alerts.dismiss(db, alert, record, dismisser(user));
  await tellDismissed(alert, done);
  return done ?? { ...alert, status: 'dismissed' as const };
};

/**
 * "I'm on it": the staff member joins the alert's acknowledgements (once: a
 * second press answers the alert as it is) and every staff screen is told;
 * a bus driver's alert also tells the school's driver pages that the school
 * has seen it (`DriverAlertView`: names and times, nothing else). An alert
 * no longer active is answered as it is.
 */
export const acknowledgeAlert = async (
  user: User,
  id: number,
  early?: Promise<Alert | undefined>,
): Promise<Alert> => {
  const alert = await alertOfSchool(user, id, early);
  if (alert.status !== 'active') return alert;
  const record = await recordingBy(user, alert.schoolId);
  const acknowledged = await alerts.acknowledge(
    db,
    alert,
    { userId: user.id, name: user.name, at: new Date().toISOString() },
    record,
  );
  if (!acknowledged) return (await alerts.get(db, id)) ?? alert;
  if (acknowledged.acknowledgements?.length === 1) {
    countMetric('alertAckSeconds', (Date.now() - Date.parse(acknowledged.createdAt)) / 1000);
  }
  await Promise.all([
    publishAlert(acknowledged, { type: 'ALERT_ACKNOWLEDGED', data: acknowledged }),
    acknowledged.source === 'bus_driver'
      ? publishToChannel(channels.drivers(acknowledged.schoolId), {
          type: 'ALERT_ACKNOWLEDGED',
          data: driverAlertView(acknowledged),
        })
      : undefined,
  ]);
  return acknowledged;
};
