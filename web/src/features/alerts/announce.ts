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

/** Alerts whose sound is being played right now (a second arrival waits for the first). */
const playing = new Set<string>();

/** Whether this device has already sounded the alert. */
export const wasHeard = (alert: Pick<Alert, 'id' | 'sessionId'>) => heard.has(keyOf(alert));

/**
 * Sounds an active alert once per device: three beeps for an emergency, one
 * tone for help. An alert the page could not sound yet (the browser wants a
 * tap first) stays unheard, so it sounds once the tap came. Answers whether
 * it sounded now.
 */
export const soundOnce = async (alert: Alert): Promise<boolean> => {
  if (alert.status !== 'active') return false;
  const key = keyOf(alert);
  if (heard.has(key) || playing.has(key)) return false;
  playing.add(key);
  try {
    const played = await playAlertSound(alert.type);
    if (played) remember(key);
    return played;
  } finally {
    playing.delete(key);
  }
};

/**
 * The screen that raised an alert is answered with a toast naming who now
 * knows ("… The school admin has been notified."): an emergency's stays until
 * closed (specification §9), help's closes on its own. Every staff screen
 * shows the alert itself on its banner, and sounds it there.
 */
export const announce = (alert: Alert, raisedHere = false) => {
  if (alert.status !== 'active' || !raisedHere) return;
  const toast = alertAnnouncement(alert, true);
  notifications.show({
    id: alertToastId(alert.id),
    color: alert.type === 'emergency' ? 'red.9' : 'orange.9',
    title: toast.title,
    message: toast.message,
    ...(toast.autoClose === false ? { autoClose: false } : {}),
  });
};
