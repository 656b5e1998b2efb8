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
