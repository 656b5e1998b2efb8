import type { Alert } from '@curbside/domain';
import { expect } from 'vitest';
import { viewports } from './browser';
import type { browserSuite } from './browser-suite';

/**
 * The phone's geolocation, scripted: `moveTo(lat, lng)` reports a fix to
 * every watcher, `failWith(code)` reports an error (1 permission denied,
 * 2 position unavailable, 3 timeout); `watching()` counts the live watches.
 */
export const scriptedGeolocation = `(() => {
  const watchers = new Map();
  let fix = { latitude: 29.9811, longitude: -81.4457 };
  let next = 1;
  const report = (watch) =>
    watch.success({
      coords: { ...fix, accuracy: 5, speed: 6.7, heading: null, altitude: null, altitudeAccuracy: null },
      timestamp: Date.now(),
    });
  Object.defineProperty(navigator, 'geolocation', {
    value: {
      watchPosition: (success, error) => {
        const id = next++;
        watchers.set(id, { success, error });
        setTimeout(() => watchers.has(id) && report(watchers.get(id)), 0);
        return id;
      },
      clearWatch: (id) => watchers.delete(id),
      getCurrentPosition: (success) => setTimeout(() => report({ success }), 0),
    },
  });
  globalThis.moveTo = (latitude, longitude) => {
    fix = { latitude, longitude };
    for (const watch of watchers.values()) report(watch);
  };
  const messages = { 1: 'User denied Geolocation', 2: 'Position unavailable', 3: 'Timeout expired' };
  globalThis.failWith = (code) => {
    for (const watch of watchers.values())
      watch.error?.({ code, message: messages[code], PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 });
  };
  globalThis.watching = () => watchers.size;
})();`;

type AlertType = 'help' | 'emergency';

/**
 * The body the driver page sends for an alert (specification §7) from bus `busId` (null: no
 * bus chosen yet, issue 50).
 */
export const driverAlertBody = (type: AlertType, busId: string | null, busName: string) => {
  const title = type === 'help' ? 'Help Request' : 'Emergency Alert';
  return {
    type,
    priority: type === 'help' ? 'medium' : 'critical',
    title,
    message: `${title} from ${busName || 'a bus driver'}`,
    source: 'bus_driver',
    metadata: { busId, busName, location: null },
  };
};

/** A driver's alert sent with the school's driver link (`driverUrl`), as the driver page sends it. */
export const sendDriverAlert = async (
  serverUrl: string,
  driverUrl: string,
  type: AlertType,
  busId: string | null,
  busName: string,
): Promise<Alert> => {
  const answer = await fetch(new URL('/api/alerts', serverUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${new URL(driverUrl).searchParams.get('t')}`,
    },
    body: JSON.stringify(driverAlertBody(type, busId, busName)),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { alert: Alert }).alert;
};

/**
 * The driver page at `driverUrl` on a touch phone with the scripted GPS, once its live
 * connection is open; `expectedErrors`: what the test makes it log on purpose.
 */
export const openDriverPage = async (
  suite: Pick<ReturnType<typeof browserSuite>, 'open'>,
  driverUrl: string,
  expectedErrors: RegExp[] = [],
) => {
  const { page } = await suite.open(null, driverUrl, {
    viewport: viewports.phone,
    touch: true,
    initScripts: [scriptedGeolocation],
    label: 'driver',
    expectedErrors: [/WebSocket/, ...expectedErrors],
  });
  await page.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
  return page;
};
