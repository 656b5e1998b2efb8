import { routes } from '@curbside/api';
import { type Alert, type AlertType, alertMessage } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { ALERTS_POLL_MS, alertKeys, withAlert, withAlertUpdated, withoutAlert } from './alerts.cache';
import { announce } from './announce';

export { ALERTS_POLL_MS, withAlert, withoutAlert };

/**
 * A session's active alerts (kept current by `activeAlertsPatch`) and the
 * school's (every staff screen's banner, kept current by the banner's live
 * events), each read again every 30 s.
 */
export const alertQueries = {
  all: alertKeys.all,
  school: () =>
    queryOptions({
      queryKey: alertKeys.school(),
      queryFn: () => api(routes.listAlerts),
      refetchInterval: ALERTS_POLL_MS,
    }),
  active: (sessionId: number) =>
    queryOptions({
      queryKey: alertKeys.active(sessionId),
      queryFn: () => api(routes.listAlerts, { query: { sessionId } }),
      refetchInterval: ALERTS_POLL_MS,
    }),
};

const SEND_FAILED: Record<AlertType, string> = {
  emergency: 'Failed to send emergency alert. Try again.',
  help: 'Failed to send help request. Try again.',
};

const showDismissed = () =>
  notifications.show({ title: 'Alert dismissed', message: 'Alert has been successfully dismissed.' });

/**
 * The Help / Emergency toggle, in the running session or with none (null):
 * raises the alert; should one of the same type at the same location be
 * active already (another screen's press a moment before), the server turns
 * it off instead (the answer says `dismissed: true`).
 */
export const useToggleAlert = (sessionId: number | null, location: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: AlertType) =>
      api(routes.createAlert, { body: { sessionId, type, location, message: alertMessage(type, location) } }),
    onSuccess: ({ dismissed, alert }) => {
      if (dismissed) {
        queryClient.setQueriesData<Alert[]>({ queryKey: alertQueries.all }, (alerts) =>
          withoutAlert(alerts, alert.id),
        );
        showDismissed();
      } else {
        const keys = sessionId === null ? [] : [alertQueries.active(sessionId).queryKey];
        for (const key of [...keys, alertKeys.school()]) {
          queryClient.setQueryData<Alert[]>(key, (alerts) => withAlert(alerts, alert));
        }
        announce(alert, true);
      }
    },
    onError: (_, type) => {
      notifications.show({ color: 'red', title: 'Error', message: SEND_FAILED[type] });
      void queryClient.invalidateQueries({ queryKey: alertQueries.all });
    },
  });
};

/** Dismisses an active alert (any location). */
export const useDismissAlert = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (alert: Pick<Alert, 'id'>) => api(routes.dismissAlert, { params: { id: alert.id } }),
    onSuccess: (_, alert) => {
      queryClient.setQueriesData<Alert[]>({ queryKey: alertQueries.all }, (alerts) =>
        withoutAlert(alerts, alert.id),
      );
      showDismissed();
    },
    onError: () => {
      notifications.show({
        color: 'red',
        title: 'Error',
        message: 'Failed to dismiss alert. Please try again.',
      });
      void queryClient.invalidateQueries({ queryKey: alertQueries.all });
    },
  });
};

/** "I'm on it": the alert comes back with this user among its acknowledgements. */
export const useAcknowledgeAlert = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (alert: Pick<Alert, 'id'>) => api(routes.acknowledgeAlert, { params: { id: alert.id } }),
    onSuccess: (alert) => {
      queryClient.setQueriesData<Alert[]>({ queryKey: alertQueries.all }, (alerts) =>
        alert.status === 'active' ? withAlertUpdated(alerts, alert) : withoutAlert(alerts, alert.id),
      );
    },
    onError: () => {
      notifications.show({
        color: 'red',
        title: 'Error',
        message: 'Failed to acknowledge alert. Please try again.',
      });
      void queryClient.invalidateQueries({ queryKey: alertQueries.all });
    },
  });
};
