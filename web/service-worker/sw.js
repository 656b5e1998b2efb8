// Curbside's service worker: the app shell for tablets at the edge of the Wi-Fi.
// Built by the `serviceWorker` plugin in vite.config.ts, which fills in the
// version and the precache list (index.html and the car-line screens' code).
//
// - Never touches /api/ or /ws: data always comes from the server (the screens
//   keep their own last-known copy for a reload while offline).
// - Navigations: network first, the cached index.html only when the network
//   fails, so a deploy's new page is used at once when online.
// - /assets/* (hashed, immutable): cache first, and cached as they are used.
// - A new version takes over at once (skipWaiting, clients.claim) and drops
//   the previous version's cache.
const VERSION = '__CURBSIDE_VERSION__';
const PRECACHE = __CURBSIDE_PRECACHE__;
const PREFIX = 'curbside-shell-';
const CACHE = `${PREFIX}${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** Requests the worker leaves to the browser: other origins, the API and the live connection. */
const passes = (url) =>
  url.origin !== self.location.origin ||
  url.pathname.startsWith('/api/') ||
  url.pathname === '/api' ||
  url.pathname === '/ws' ||
  url.pathname.startsWith('/ws/');

const fromCacheFirst = async (request) => {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
};

const networkFirstPage = async (request) => {
  try {
    return await fetch(request);
  } catch (error) {
    const cache = await caches.open(CACHE);
    const page = await cache.match('/index.html');
    if (page) return page;
    throw error;
  }
};

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (passes(url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirstPage(request));
    return;
  }
  if (url.pathname.startsWith('/assets/') || PRECACHE.includes(url.pathname)) {
    event.respondWith(fromCacheFirst(request));
  }
});
