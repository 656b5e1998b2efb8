import { isStaffAlert, type LiveEvent } from '@curbside/api';
import type { Alert } from '@curbside/domain';
import type { QueryKey } from '@tanstack/react-query';
import { cachePatch } from '../live/live-sync';

/** Alerts refetch every 30 s on top of the live events (specification §7, §9). */
export const ALERTS_POLL_MS = 30_000;

export const alertKeys = {
  all: ['alerts'] as const,
  active: (sessionId: number) => [...alertKeys.all, sessionId, 'active'] as const,
  /** The school's active alerts, of any session or none: every staff screen's banner. */
  school: () => [...alertKeys.all, 'school', 'active'] as const,
};

const isKey = (queryKey: QueryKey, expected: QueryKey) =>
  queryKey.length === expected.length && expected.every((part, i) => queryKey[i] === part);

/** Adds an alert to a cached list (newest first) or takes one out. */
export const withAlert = (alerts: Alert[] | undefined, alert: Alert) =>
  alerts && !alerts.some((item) => item.id === alert.id) ? [alert, ...alerts] : alerts;
export const withoutAlert = (alerts: Alert[] | undefined, id: number) =>
  alerts?.some((item) => item.id === id) ? alerts.filter((item) => item.id !== id) : alerts;
/** Puts the newer copy of an alert (its acknowledgements) in a cached list that holds it. */
export const withAlertUpdated = (alerts: Alert[] | undefined, alert: Alert) => {
  if (!alerts?.some((item) => item.id === alert.id)) return alerts;
  const newer = (item: Alert) =>
    (alert.acknowledgements?.length ?? 0) >= (item.acknowledgements?.length ?? 0);
  return alerts.map((item) => (item.id === alert.id && newer(item) ? alert : item));
};

/**
 * The school's active alerts after a live event: raised ones are prepended,
 * acknowledged ones replaced, dismissed ones leave; other events leave the
 * list as it is (the same object).
 */
export const schoolAlertsAfter = (list: Alert[], event: LiveEvent): Alert[] => {
  if (event.type === 'ALERT_CREATED') {
    return event.data.status === 'active' ? (withAlert(list, event.data) ?? list) : list;
  }
  if (event.type === 'ALERT_ACKNOWLEDGED' && isStaffAlert(event.data)) {
    return withAlertUpdated(list, event.data) ?? list;
  }
  if (event.type === 'ALERT_DISMISSED') return withoutAlert(list, event.data.id) ?? list;
  return list;
};

/** The session's active alerts: raised ones are prepended, acknowledged ones replaced, dismissed ones leave. */
export const activeAlertsPatch = cachePatch<Alert[]>({
  name: 'alerts.active',
  matches: (queryKey, sessionId) => isKey(queryKey, alertKeys.active(sessionId)),
  reduce: (list, event, context) => {
    if (event.type === 'ALERT_CREATED') {
      const alert = event.data;
      return alert.status === 'active' && !context.ended(`alert:${alert.id}`)
        ? (withAlert(list, alert) ?? list)
        : list;
    }
    return schoolAlertsAfter(list, event);
  },
});
