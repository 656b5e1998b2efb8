import { ALERT_REPEAT_MS, type Alert, alertRepeats } from '@curbside/domain';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import {
  onSoundState,
  playAlertSound,
  type SoundState,
  soundState,
  unlockAlertSoundOnTap,
} from './alert-sound';
import { soundOnce, wasHeard } from './announce';

/** How often the screen checks what is due to sound again, and flashes the tab title (ms). */
const TICK_MS = 1000;

/** The page's sound state, re-rendered when a tap unlocks sound (or the browser suspends it). */
export const useSoundState = (): SoundState => useSyncExternalStore(onSoundState, soundState, () => 'locked');

/** The tab title while an alert is active and the tab is in the background: alternates with the page's own. */
export const flashTitle = (alerts: readonly Alert[]) =>
  alerts.some((alert) => alert.type === 'emergency') ? '⚠ EMERGENCY ALERT' : '⚠ Help Requested';

/**
 * Sounds the school's active alerts on this screen: each once when it first
 * arrives (or once a tap allows sound, if it came before); an emergency nobody
 * has acknowledged again every 30 s until someone is on it or it is
 * dismissed (help sounds once). While any alert is active and the tab is in
 * the background, the tab title flashes.
 */
export const useAlertSounds = (alerts: readonly Alert[]) => {
  const sound = useSoundState();
  useEffect(() => unlockAlertSoundOnTap(), []);

  // Each alert once per device; an alert heard before this page loaded counts as sounded now.
  const lastSounded = useRef(new Map<number, number>());
  useEffect(() => {
    if (sound === 'unsupported') return;
    for (const alert of alerts) {
      if (lastSounded.current.has(alert.id)) continue;
      if (wasHeard(alert)) {
        lastSounded.current.set(alert.id, Date.now());
        continue;
      }
      void soundOnce(alert).then((played) => {
        if (played) lastSounded.current.set(alert.id, Date.now());
      });
    }
  }, [alerts, sound]);

  // Unacknowledged emergencies again every 30 s.
  const latest = useRef(alerts);
  latest.current = alerts;
  const repeating = alerts.some(alertRepeats);
  useEffect(() => {
    if (!repeating) return;
    const timer = setInterval(() => {
      const now = Date.now();
      for (const alert of latest.current) {
        const last = lastSounded.current.get(alert.id);
        if (!alertRepeats(alert) || last === undefined || now - last < ALERT_REPEAT_MS) continue;
        lastSounded.current.set(alert.id, now);
        void playAlertSound(alert.type);
      }
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [repeating]);

  // The tab title flashes while an alert is active and the tab is hidden.
  const active = alerts.length > 0;
  useEffect(() => {
    if (!active) return;
    const own = document.title;
    let flashed = false;
    const timer = setInterval(() => {
      flashed = document.hidden ? !flashed : false;
      document.title = flashed ? flashTitle(latest.current) : own;
    }, TICK_MS);
    return () => {
      clearInterval(timer);
      document.title = own;
    };
  }, [active]);
};
