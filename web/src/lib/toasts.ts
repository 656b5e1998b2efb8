import type { VehicleType } from '@curbside/domain';
import { type NotificationData, notifications, notificationsStore } from '@mantine/notifications';
import { createElement, Fragment } from 'react';
import { takeFailedCall } from './http';

/**
 * Toasts show one at a time (specification §9). Two kinds share that slot:
 *
 * - answers to what this user just did ("Failed to add vehicle", "Session
 *   ended"), shown with `notifications.show` wherever the action lives;
 * - live announcements about what happened elsewhere ("Vehicle added
 *   successfully: Car 107…"), shown with `showLiveToast`.
 *
 * So that an announcement never hides or contradicts the answer the user is
 * waiting for: errors go first, then other answers, then announcements (a
 * shown toast of a lower rank steps back into the queue when one of a higher
 * rank arrives); only the newest announcement waits (a rush of cars does not
 * pile up minutes of stale toasts); and `withdrawLiveToast` takes back what
 * was announced about a car the server just refused for this user (and keeps
 * late copies of that announcement away for a while).
 */

const LIVE = 'data-live-toast';

/** The specification's toasts: one at a time, at the top, 5 s, at most 420 px wide. */
export const TOASTS = { limit: 1, position: 'top-center', autoClose: 5000, width: 420 } as const;

/**
 * The store shows toasts as the container will (one at a time, at the top) from the start: the
 * container (`components/toasts.tsx`) loads only with the first toast, which meanwhile waits in
 * the store as the specification has it.
 */
export const placeToasts = () =>
  notificationsStore.updateState((state) => ({
    ...state,
    limit: TOASTS.limit,
    defaultPosition: TOASTS.position,
  }));

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

/**
 * A vehicle's announcements' subject (`car-107`): the queue list announces it, the keypad and Scan
 * take it back. Here rather than in the queue list, so the keypad loads no list's code (h57q).
 */
export const vehicleToastSubject = (type: VehicleType, number: string) => `${type}-${number}`;

/** Takes back the announcement about `about` and keeps its late copies away for a while. */
export const withdrawLiveToast = (about: string) => {
  withdrawn.set(about, Date.now() + WITHDRAWN_FOR_MS);
  notifications.updateState(notificationsStore, (list) => list.filter((item) => item[LIVE] !== about));
};

/** 0: an error answer (red), 1: another answer, 2: a live announcement. */
const rankOf = (toast: NotificationData) =>
  isLive(toast) ? 2 : typeof toast.color === 'string' && toast.color.startsWith('red') ? 0 : 1;

/**
 * Keeps the slot for the most urgent toast: whenever a toast of a higher rank
 * waits behind the one shown, the list is reordered by rank (order kept
 * within a rank). Returns the unsubscribe function.
 */
export const answersBeforeAnnouncements = () =>
  notificationsStore.subscribe((state) => {
    const shown = state.notifications[0];
    if (!shown || !state.queue.some((toast) => rankOf(toast) < rankOf(shown))) return;
    notifications.updateState(notificationsStore, (list) =>
      list
        .map((toast, index) => ({ toast, index }))
        .sort((a, b) => rankOf(a.toast) - rankOf(b.toast) || a.index - b.index)
        .map(({ toast }) => toast),
    );
  });

const KIND = 'data-toast-kind';

/**
 * Shows an answer of a kind that comes in runs (`Vehicle added` after each
 * save of an admin adding cars): at most one toast of that kind waits or
 * shows; a new one takes the place of the old, so the fourth save is
 * answered at once, not after three more toasts' 5 s each.
 */
export const showReplacingToast = (kind: string, toast: Omit<NotificationData, 'id'>) => {
  notifications.updateState(notificationsStore, (list) => {
    const fresh = { ...toast, id: `${kind}-${Date.now()}-${Math.random()}`, [KIND]: kind };
    const at = list.findIndex((item) => item[KIND] === kind);
    if (at === -1) return [...list, fresh];
    return [...list.slice(0, at), fresh, ...list.slice(at + 1).filter((item) => item[KIND] !== kind)];
  });
};

const REFERENCE = 'data-reference';

/**
 * Names the request behind each error toast (issue 55): a red toast shown
 * just after a call failed gets a line "Reference: 7KQ2-M9XD-3FHA", the id
 * the server's log lines of that request carry, so a school can quote it and
 * IT find the request. The call is the failed one whose server message the
 * toast shows, else the last one that failed in the moment before. Returns
 * the unsubscribe function.
 */
export const referencesOnErrorToasts = () =>
  notificationsStore.subscribe((state) => {
    const fresh = [...state.notifications, ...state.queue].filter(
      (toast) => rankOf(toast) === 0 && !isLive(toast) && toast[REFERENCE] === undefined,
    );
    if (fresh.length === 0) return;
    const named = new Map(
      fresh.map((toast) => [
        toast.id,
        takeFailedCall(typeof toast.message === 'string' ? toast.message : null)?.reference ?? null,
      ]),
    );
    notifications.updateState(notificationsStore, (list) =>
      list.map((toast) => {
        if (!named.has(toast.id)) return toast;
        const reference = named.get(toast.id);
        return reference
          ? {
              ...toast,
              [REFERENCE]: reference,
              message: createElement(
                Fragment,
                null,
                toast.message,
                createElement(
                  'span',
                  {
                    className: 'toast-reference',
                    style: { display: 'block', fontSize: '0.8em', marginTop: 4 },
                  },
                  `Reference: ${reference}`,
                ),
              ),
            }
          : { ...toast, [REFERENCE]: '' };
      }),
    );
  });
