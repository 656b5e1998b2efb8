import { type NotificationData, notifications, notificationsStore } from '@mantine/notifications';

/**
 * Toasts show one at a time (specification §9). Two kinds share that slot:
 *
 * - answers to what this user just did ("Failed to add vehicle", "Session
 *   ended"), shown with `notifications.show` wherever the action lives;
 * - live announcements about what happened elsewhere ("Vehicle added
 *   successfully: Car 107…"), shown with `showLiveToast`.
 *
 * So that an announcement never hides or contradicts the answer the user is
 * waiting for: an answer goes before any announcement (a shown announcement
 * steps back into the queue), only the newest announcement waits (a rush of
 * cars does not pile up minutes of stale toasts), and `withdrawLiveToast`
 * takes back what was announced about a car the server just refused for this
 * user (and keeps late copies of that announcement away for a while).
 */

const LIVE = 'data-live-toast';

/** How long announcements about a withdrawn subject stay away (ms). */
export const WITHDRAWN_FOR_MS = 15_000;

const withdrawn = new Map<string, number>();

const isLive = (toast: NotificationData) => Boolean(toast[LIVE]);

export const liveToastId = (about: string) => `live-${about}`;

/** Announces a live change about `about` (e.g. `car-107`), replacing any older announcement. */
export const showLiveToast = (about: string, toast: Omit<NotificationData, 'id'>) => {
  const until = withdrawn.get(about);
  if (until !== undefined) {
    if (until > Date.now()) return;
    withdrawn.delete(about);
  }
  notifications.updateState(notificationsStore, (list) => [
    ...list.filter((item) => !isLive(item)),
    { ...toast, id: liveToastId(about), [LIVE]: about },
  ]);
};

/** Takes back the announcement about `about` and keeps its late copies away for a while. */
export const withdrawLiveToast = (about: string) => {
  withdrawn.set(about, Date.now() + WITHDRAWN_FOR_MS);
  notifications.updateState(notificationsStore, (list) => list.filter((item) => item[LIVE] !== about));
};

/**
 * Lets answers go first: whenever an announcement is on screen while an
 * answer waits, the answer takes the slot. Returns the unsubscribe function.
 */
export const answersBeforeAnnouncements = () =>
  notificationsStore.subscribe((state) => {
    if (!state.notifications.some(isLive) || !state.queue.some((toast) => !isLive(toast))) return;
    notifications.updateState(notificationsStore, (list) => [
      ...list.filter((toast) => !isLive(toast)),
      ...list.filter(isLive),
    ]);
  });
