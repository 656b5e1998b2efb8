/**
 * How the web app's files are cached and compressed, as CloudFront serves them: one definition
 * for the laptop's static server (`packages/local/src/static.ts`), the web build's precompressed
 * copies (`web/precompress.ts`) and the distribution's policies (`infra/lib/site.ts`). ADR 0026.
 */

/** Files the build names after their content (`/assets/index-3f9a….js`): a new version is a new name. */
export const HASHED_ASSETS_PREFIX = '/assets/';

/** A year: a hashed file never changes, so a copy anywhere stays good for as long as anyone keeps it. */
export const HASHED_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export const SITE_CACHE_CONTROL = {
  /** Hashed assets: kept a year by browsers and the edge, never asked again. */
  hashed: `public, max-age=${HASHED_MAX_AGE_SECONDS}, immutable`,
  /** `index.html`, `sw.js` and the public files: asked again on every load, so a deploy is seen at once. */
  revalidate: 'no-cache',
} as const;

/** The Cache-Control of the site's file at `path` (a URL path, decoded). */
export const siteCacheControl = (path: string): string =>
  path.startsWith(HASHED_ASSETS_PREFIX) ? SITE_CACHE_CONTROL.hashed : SITE_CACHE_CONTROL.revalidate;

/**
 * The copies the web build writes beside each text file (`index-3f9a….js.br`), by the
 * Content-Encoding they are served with, best first. CloudFront compresses by itself (the
 * distribution's `compress: true` with Brotli and gzip in its cache policy), so they are not
 * uploaded; the laptop runtime serves them.
 */
export const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

export type SiteEncoding = (typeof PRECOMPRESSED)[number]['encoding'];
