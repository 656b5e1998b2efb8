import { type Alert, alertAnnouncement } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLiveEvent } from '../live/live';
import { playAlertSound, unlockAlertSoundOnFirstTap } from './alert-sound';
import { alertQueries, withAlert, withoutAlert } from './alerts.queries';

/** Alert ids already announced in this page: each alert gets one toast and one sound. */
const announced = new Set<number>();

export const alertToastId = (id: number) => `alert-${id}`;

const announce = (alert: Alert) => {
  if (announced.has(alert.id) || alert.status !== 'active') return;
  announced.add(alert.id);
  const toast = alertAnnouncement(alert);
  notifications.show({
    id: alertToastId(alert.id),
    color: alert.type === 'emergency' ? 'red' : 'orange',
    title: toast.title,
    message: toast.message,
    autoClose: toast.autoClose,
    withBorder: true,
  });
  playAlertSound(alert.type);
};

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
