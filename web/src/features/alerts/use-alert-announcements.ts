import type { Alert } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLiveEvent } from '../live/live';
import { unlockAlertSoundOnFirstTap } from './alert-sound';
import { alertQueries, withAlert, withoutAlert } from './alerts.queries';
import { alertToastId, announce } from './announce';

/**
 * Keeps the session's alert list current from the live connection and
 * announces every alert once (toast and sound): alerts raised live and active
 * alerts first seen in the list. A dismissed alert leaves the list and its toast.
 */
export const useAlertAnnouncements = (sessionId: number, alerts: readonly Alert[] | undefined) => {
  const queryClient = useQueryClient();
  const key = alertQueries.active(sessionId).queryKey;

  useEffect(() => unlockAlertSoundOnFirstTap(), []);

  useLiveEvent('ALERT_CREATED', (message) => {
    const alert = message.data as Alert | undefined;
    if (!alert || typeof alert.id !== 'number') return;
    if (alert.sessionId === sessionId)
      queryClient.setQueryData<Alert[]>(key, (list) => withAlert(list, alert));
    announce(alert);
  });

  useLiveEvent('ALERT_DISMISSED', (message) => {
    const id = (message.data as { id?: number } | undefined)?.id;
    if (typeof id !== 'number') return;
    queryClient.setQueriesData<Alert[]>({ queryKey: alertQueries.all }, (list) => withoutAlert(list, id));
    notifications.hide(alertToastId(id));
  });

  useEffect(() => {
    for (const alert of alerts ?? []) announce(alert);
  }, [alerts]);
};
