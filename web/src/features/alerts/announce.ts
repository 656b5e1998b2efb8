import { type Alert, alertAnnouncement } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { playAlertSound } from './alert-sound';

/**
 * Alerts this device has already sounded, remembered across reloads (local
 * storage, the newest 200), so a page load does not replay an alert the staff
 * here have already heard. The alert itself stays on the screen's alert
 * banner until someone dismisses it.
 */
export const HEARD_ALERTS_KEY = 'curbside-alerts-heard';
const HEARD_LIMIT = 200;

const keyOf = (alert: Pick<Alert, 'id' | 'sessionId'>) => `${alert.sessionId}:${alert.id}`;

const readHeard = (): string[] => {
  try {
    const stored = JSON.parse(window.localStorage.getItem(HEARD_ALERTS_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
};

/** Heard in this page (also when storage is unavailable). */
const heard = new Set<string>(typeof window === 'undefined' ? [] : readHeard());

const remember = (key: string) => {
  heard.add(key);
  try {
    const kept = [...readHeard().filter((item) => item !== key), key].slice(-HEARD_LIMIT);
    window.localStorage.setItem(HEARD_ALERTS_KEY, JSON.stringify(kept));
  } catch {
    // Private mode or storage full: remembered until the page reloads.
  }
};

export const alertToastId = (id: number) => `alert-${id}`;

/**
 * Sounds an active alert once per device: three beeps for an emergency, one
 * tone for help. The screen that raised it is also answered with a toast
 * naming who now knows ("… The school admin has been notified."); every
 * screen shows the alert on its banner, not in a toast, so an emergency never
 * holds the one toast slot that answers to the user's own actions need.
 */
export const announce = (alert: Alert, raisedHere = false) => {
  if (alert.status !== 'active') return;
  if (raisedHere) {
    const toast = alertAnnouncement(alert, true);
    notifications.show({
      id: alertToastId(alert.id),
      color: alert.type === 'emergency' ? 'red.9' : 'orange.9',
      title: toast.title,
      message: toast.message,
    });
  }
  const key = keyOf(alert);
  if (heard.has(key)) return;
  remember(key);
  playAlertSound(alert.type);
};
