import { routes } from '@curbside/api';
import { type Alert, type AlertType, alertMessage } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { announce } from './announce';

/** Alerts refetch every 30 s on top of the live events. */
export const ALERTS_POLL_MS = 30_000;

export const alertQueries = {
  all: ['alerts'] as const,
  active: (sessionId: number) =>
    queryOptions({
      queryKey: [...alertQueries.all, sessionId, 'active'] as const,
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

/** Adds an alert to a cached list (newest first) or takes one out. */
export const withAlert = (alerts: Alert[] | undefined, alert: Alert) =>
  alerts && !alerts.some((item) => item.id === alert.id) ? [alert, ...alerts] : alerts;
export const withoutAlert = (alerts: Alert[] | undefined, id: number) =>
  alerts?.filter((item) => item.id !== id);

/**
 * The Help / Emergency toggle: the same type again from the same location
 * turns the active alert off (the answer says `dismissed: true`).
 */
export const useToggleAlert = (sessionId: number, location: string) => {
  const queryClient = useQueryClient();
  const key = alertQueries.active(sessionId).queryKey;
  return useMutation({
    mutationFn: (type: AlertType) =>
      api(routes.createAlert, { body: { sessionId, type, location, message: alertMessage(type, location) } }),
    onSuccess: ({ dismissed, alert }) => {
      if (dismissed) {
        queryClient.setQueryData<Alert[]>(key, (alerts) => withoutAlert(alerts, alert.id));
        showDismissed();
      } else {
        queryClient.setQueryData<Alert[]>(key, (alerts) => withAlert(alerts, alert));
        announce(alert, true);
      }
    },
    onError: (_, type) => notifications.show({ color: 'red', title: 'Error', message: SEND_FAILED[type] }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueries.all }),
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
    onError: () =>
      notifications.show({
        color: 'red',
        title: 'Error',
        message: 'Failed to dismiss alert. Please try again.',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueries.all }),
  });
};
