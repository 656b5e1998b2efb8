/**
 * The security headers of every answer, page and API alike: one definition
 * for CloudFront's response headers policies (infra) and the laptop runtime.
 */

/**
 * The origins the bus map loads tiles, styles and marker images from: the
 * one place to change when the map's tile service changes. Allowed in
 * `connect-src` (maplibre fetches tiles and styles) and `img-src`. A
 * deployment may name others (CDK context `curbside:mapOrigins`, laptop
 * `MAP_ORIGINS`, comma-separated).
 */
export const MAP_ORIGINS: readonly string[] = ['https://tile.openstreetmap.org'];

/**
 * Pages that may ask for the device's position: the bus driver's (it shares
 * the bus's live position) and the parent's dashboard ("I'm here" inside the
 * school's geofence, issue 53; the position is checked and dropped).
 */
export const GEOLOCATION_PATHS: readonly string[] = ['/bus-driver', '/parent-dashboard'];

/**
 * Pages that may open the camera and run WebAssembly: the front queue's Scan
 * button (issue 53) reads placards' QR codes with the tablet's camera, decoded
 * by zxing-wasm served by the app itself (`'wasm-unsafe-eval'` lets the page
 * compile WebAssembly; it allows no `eval` of JavaScript).
 */
export const SCAN_PATHS: readonly string[] = ['/front-queue'];

export interface SecurityHeaderOptions {
  /** Default `MAP_ORIGINS`. */
  mapOrigins?: readonly string[];
  /** The page compiles WebAssembly (`SCAN_PATHS`). */
  wasm?: boolean;
}

/** Parses a comma-separated list of origins (`MAP_ORIGINS`), refusing anything but plain https origins. */
export const parseOrigins = (list: string): string[] =>
  list
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '')
    .map((origin) => {
      const url = new URL(origin);
      if (url.protocol !== 'https:' || url.origin !== origin)
        throw new Error(`Not an https origin: ${origin}`);
      return origin;
    });

/**
 * A strict policy: scripts only from the site itself (no inline script, no
 * eval), connections to the site (API and `/ws`) and the map's origins,
 * workers from the site or blob: (maplibre), never framed. Styles allow
 * inline: Mantine sets CSS variables in style attributes.
 */
export const contentSecurityPolicy = ({
  mapOrigins = MAP_ORIGINS,
  wasm = false,
}: SecurityHeaderOptions = {}): string => {
  const map = mapOrigins.join(' ');
  return [
    "default-src 'self'",
    wasm ? "script-src 'self' 'wasm-unsafe-eval'" : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${map ? ` ${map}` : ''}`,
    `connect-src 'self'${map ? ` ${map}` : ''}`,
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
};

/** Geolocation for `GEOLOCATION_PATHS` only, the camera for `SCAN_PATHS` only; microphone and payment for none. */
export const permissionsPolicy = (geolocation: boolean, camera = false): string =>
  [
    `geolocation=${geolocation ? '(self)' : '()'}`,
    `camera=${camera ? '(self)' : '()'}`,
    'microphone=()',
    'payment=()',
    'usb=()',
  ].join(', ');

const under = (pages: readonly string[], path: string) =>
  pages.some((page) => path === page || path.startsWith(`${page}/`));

/** Whether a page path gets geolocation (`GEOLOCATION_PATHS` and below them). */
export const allowsGeolocation = (path: string): boolean => under(GEOLOCATION_PATHS, path);

/** Whether a page path gets the camera and WebAssembly (`SCAN_PATHS` and below them). */
export const allowsScanning = (path: string): boolean => under(SCAN_PATHS, path);

/**
 * The headers of an answer to `path` (lowercase names). HSTS is CloudFront's
 * to add: the laptop runtime speaks plain http.
 */
export const securityHeaders = (
  path: string,
  options: SecurityHeaderOptions = {},
): Record<string, string> => ({
  'content-security-policy': contentSecurityPolicy({ ...options, wasm: allowsScanning(path) }),
  'permissions-policy': permissionsPolicy(allowsGeolocation(path), allowsScanning(path)),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
});
