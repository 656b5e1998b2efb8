import type { Alert } from '@curbside/domain';
import type { QueryKey } from '@tanstack/react-query';
import { cachePatch } from '../live/live-sync';

/** Alerts refetch every 30 s on top of the live events (specification §7, §9). */
export const ALERTS_POLL_MS = 30_000;

export const alertKeys = {
  all: ['alerts'] as const,
  active: (sessionId: number) => [...alertKeys.all, sessionId, 'active'] as const,
};

const isKey = (queryKey: QueryKey, expected: QueryKey) =>
  queryKey.length === expected.length && expected.every((part, i) => queryKey[i] === part);

/** Adds an alert to a cached list (newest first) or takes one out. */
export const withAlert = (alerts: Alert[] | undefined, alert: Alert) =>
  alerts && !alerts.some((item) => item.id === alert.id) ? [alert, ...alerts] : alerts;
export const withoutAlert = (alerts: Alert[] | undefined, id: number) =>
  alerts?.some((item) => item.id === id) ? alerts.filter((item) => item.id !== id) : alerts;

/** The session's active alerts: raised ones are prepended, dismissed ones leave. */
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
    if (event.type === 'ALERT_DISMISSED') return withoutAlert(list, event.data.id) ?? list;
    return list;
  },
});
