import type { Alert } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useLiveEvent, useLivePatches } from '../live/live';
import { unlockAlertSoundOnFirstTap } from './alert-sound';
import { activeAlertsPatch } from './alerts.cache';
import { alertToastId, announce } from './announce';

/**
 * Keeps the session's alert list current from the live connection and
 * announces every alert once (toast and sound): alerts raised live and active
 * alerts first seen in the list. A dismissed alert leaves the list and its toast.
 */
export const useAlertAnnouncements = (_sessionId: number, alerts: readonly Alert[] | undefined) => {
  useEffect(() => unlockAlertSoundOnFirstTap(), []);
  // The session's list follows the events (patched); the toasts and sounds are announced here.
  useLivePatches([activeAlertsPatch]);

  useLiveEvent('ALERT_CREATED', (event) => announce(event.data));

  useLiveEvent('ALERT_DISMISSED', (event) => notifications.hide(alertToastId(event.data.id)));

  useEffect(() => {
    for (const alert of alerts ?? []) announce(alert);
  }, [alerts]);
};
