import { type Alert, alertAnnouncement } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { playAlertSound } from './alert-sound';

/** Alert ids already announced in this page: each alert gets one toast and one sound. */
const announced = new Set<number>();

export const alertToastId = (id: number) => `alert-${id}`;

/**
 * Announces an active alert once per page: a toast (an emergency's never
 * closes by itself) and its sound. The screen that raised it says so first,
 * telling the staff member that the school admin has been notified.
 */
export const announce = (alert: Alert, raisedHere = false) => {
  if (alert.status !== 'active') return;
  const toast = alertAnnouncement(alert, raisedHere);
  const shown = {
    id: alertToastId(alert.id),
    color: alert.type === 'emergency' ? 'red' : 'orange',
    title: toast.title,
    message: toast.message,
    autoClose: toast.autoClose,
    withBorder: true,
  };
  if (announced.has(alert.id)) {
    // The live event often beats the raising call's own answer: add the note to that toast.
    if (raisedHere) notifications.update(shown);
    return;
  }
  announced.add(alert.id);
  notifications.show(shown);
  playAlertSound(alert.type);
};
