import {
  ALERT_KIND,
  type Alert,
  alertOwners,
  alertRaiser,
  BANNER_ALERTS_SHOWN,
  bySeverity,
  formatAgo,
  formatClockTime,
  plural,
} from '@curbside/domain';
import { Button, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLiveEvent } from '../live/live';
import { alertKeys, schoolAlertsAfter } from './alerts.cache';
import classes from './alerts.module.css';
import { alertQueries, useAcknowledgeAlert } from './alerts.queries';
import { alertToastId } from './announce';
import { useDismissAsking } from './dismiss-alert';
import { useAlertSounds, useSoundState } from './use-alert-sounds';

/** Re-renders every `ms`, for the "how long ago" of each alert. */
const useNow = (ms: number) => {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
};

/** ✕: a phone's Dismiss (its name says it whole). */
const Cross = () => (
  <svg
    className={classes.short}
    width="20"
    height="20"
    viewBox="0 0 24 24"
    aria-hidden="true"
    focusable="false"
  >
    <path
      d="M6 6l12 12M18 6L6 18"
      fill="none"
      stroke="currentColor"
      strokeWidth="3.5"
      strokeLinecap="round"
    />
  </svg>
);

/**
 * One active alert on one line (issue 50): what and where, who raised it,
 * how long ago, who is on it, then "I'm on it" (until this user is: the line
 * names them) and Dismiss. A phone breaks the text in two short lines beside
 * the buttons (what, where and who; who is on it and when); anything too long
 * for its line is cut (the whole message is the row's title and the buttons'
 * names).
 */
function BannerRow({
  alert,
  userId,
  now,
  onDismiss,
  dismissing,
}: {
  alert: Alert;
  userId: number;
  now: number;
  onDismiss: (alert: Alert) => void;
  dismissing: boolean;
}) {
  const acknowledge = useAcknowledgeAlert();
  const owners = alertOwners(alert.acknowledgements);
  const mine = (alert.acknowledgements ?? []).some((ack) => ack.userId === userId);
  return (
    <li className={classes.row} data-type={alert.type} title={alert.message}>
      <Text component="p" fz="sm" fw={800} inherit className={classes.line}>
        <span className={classes.what}>
          <span className={classes.label}>{ALERT_KIND[alert.type]}</span>
          {` ${alert.location} · by ${alertRaiser(alert)}`}
        </span>
        <span className={classes.when}>
          <span className={classes.sep}>{' · '}</span>
          <time dateTime={alert.createdAt} title={formatClockTime(alert.createdAt)}>
            {formatAgo(alert.createdAt, now)}
          </time>
          <span className={classes.dot}>{' · '}</span>
          <span className={classes.owners} data-owned={owners ? true : undefined}>
            {owners ?? 'Nobody on it yet'}
          </span>
        </span>
      </Text>
      <div className={classes.actions}>
        {!mine && (
          <Button
            className={classes.onIt}
            size="sm"
            loading={acknowledge.isPending}
            onClick={() => acknowledge.mutate(alert)}
            aria-label={`I'm on it: ${alert.message}`}
          >
            <span className={classes.long}>I’m on it</span>
            <span className={classes.short}>On it</span>
          </Button>
        )}
        <Button
          className={classes.dismiss}
          size="sm"
          loading={dismissing}
          onClick={() => onDismiss(alert)}
          aria-label={`Dismiss: ${alert.message}`}
        >
          <span className={classes.long}>Dismiss</span>
          <Cross />
        </Button>
      </div>
    </li>
  );
}

/** How long the bar waits for the click of a tap that began while it showed, after the finger came up (ms). */
const TAP_END_MS = 1000;

/**
 * Keeps the sound bar on screen, where it is, while a tap that began while it
 * showed is still going: sound comes on at the touch (the page's first
 * pointerdown), and a bar that went away then would move what the finger is
 * on before the end of the tap — the click, which a phone sends when the
 * finger comes up — and give that click to whatever came under it: on the
 * bar, the button below it ("Rotate links" on the school admin's phone); at
 * the end of the page, which the bar ends, the page scrolled down by its
 * height. It lets go at that click, when the touch is cancelled (the finger
 * scrolled), or a moment after the finger came up without a click. Its
 * listeners are in place before the tap begins: a tap quicker than a render
 * is held and let go all the same.
 */
const useHeldDuringTap = (locked: boolean) => {
  const [held, setHeld] = useState(false);
  const watching = locked || held;
  useEffect(() => {
    if (!watching) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hold = () => {
      clearTimeout(timer);
      setHeld(true);
    };
    const release = () => {
      clearTimeout(timer);
      setHeld(false);
    };
    const lifted = () => {
      clearTimeout(timer);
      timer = setTimeout(release, TAP_END_MS);
    };
    const listeners = [
      ['pointerdown', hold],
      ['pointerup', lifted],
      ['pointercancel', release],
      ['click', release],
    ] as const;
    for (const [type, listener] of listeners) document.addEventListener(type, listener, { capture: true });
    return () => {
      clearTimeout(timer);
      for (const [type, listener] of listeners)
        document.removeEventListener(type, listener, { capture: true });
    };
  }, [watching]);
  return held;
};

/**
 * Shown while the browser still wants a tap before the page may make sound
 * (after a reload, say), and until the tap that turned sound on has ended:
 * the bar takes a tap on it, nothing under it does (its button does nothing
 * itself: any tap or key press on the page turns sound on). The staff shell
 * puts it last, after the footer: it stays on screen at the bottom while the
 * page scrolls, and the page ends above it, so the footer is never under it.
 */
export function SoundBar() {
  const locked = useSoundState() === 'locked';
  const held = useHeldDuringTap(locked);
  if (!locked && !held) return null;
  // The explanation sits beside the button, not in it, so the button's name is what it
  // shows; the button's hit area still covers the whole bar (see .soundButton).
  return (
    <div className={classes.soundBar}>
      <UnstyledButton className={classes.soundButton} aria-describedby="alert-sound-why" fw={900} fz="md">
        Tap to turn on alert sounds
      </UnstyledButton>
      <Text component="span" id="alert-sound-why" fz="sm" fw={700} inherit visibleFrom="sm">
        Until then this screen cannot sound alerts.
      </Text>
    </div>
  );
}

/**
 * At the top of every signed-in staff screen (the staff shell mounts it once):
 * every active alert of the school, session or not, one line each, the most
 * severe first. At most two show, then "+N more", which opens the rest: with
 * five alerts the front queue's keypad and Add to Queue stay on a tablet's
 * first screen (issue 50). It sounds each alert once per device and repeats
 * an emergency nobody is on every 30 s (while the browser still wants a tap
 * before it may make sound, `SoundBar` asks for one). Dismissing an emergency
 * asks first.
 */
export function AlertBanner({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  const query = useQuery(alertQueries.school());
  const [expanded, setExpanded] = useState(false);
  const dismiss = useDismissAsking();
  useLiveEvent(['ALERT_CREATED', 'ALERT_ACKNOWLEDGED', 'ALERT_DISMISSED'], (event) => {
    const key = alertKeys.school();
    queryClient.setQueryData<Alert[]>(key, (list) => list && schoolAlertsAfter(list, event));
    // A read of the list in flight (the first, the poll, or the one after the connection opened)
    // may have been answered before this change: its answer would undo it until the next poll,
    // 30 s on. That read is dropped and the list read again.
    if (queryClient.getQueryState(key)?.fetchStatus === 'fetching') {
      void queryClient.invalidateQueries({ queryKey: key, exact: true });
    }
    if (event.type === 'ALERT_DISMISSED') notifications.hide(alertToastId(event.data.id));
  });
  const alerts = (query.data ?? []).filter((alert) => alert.status === 'active').sort(bySeverity);
  useAlertSounds(alerts);
  const now = useNow(10_000);
  const emergency = alerts.some((alert) => alert.type === 'emergency');
  const hidden = alerts.length - BANNER_ALERTS_SHOWN;
  const shown = expanded || hidden <= 0 ? alerts : alerts.slice(0, BANNER_ALERTS_SHOWN);
  return (
    <>
      {alerts.length > 0 && (
        <section
          aria-label="Active alerts"
          className={`${classes.banner} ${classes.alerts}`}
          data-emergency={emergency || undefined}
        >
          <ul id="active-alerts" className={classes.list} aria-label={plural(alerts.length, 'active alert')}>
            {shown.map((alert) => (
              <BannerRow
                key={alert.id}
                alert={alert}
                userId={userId}
                now={now}
                onDismiss={dismiss.ask}
                dismissing={dismiss.pending(alert.id)}
              />
            ))}
          </ul>
          {hidden > 0 && (
            <UnstyledButton
              className={classes.more}
              aria-expanded={expanded}
              aria-controls="active-alerts"
              onClick={() => setExpanded((open) => !open)}
            >
              {expanded ? 'Show fewer' : `+${hidden} more`}
            </UnstyledButton>
          )}
        </section>
      )}
      {dismiss.dialog}
    </>
  );
}
