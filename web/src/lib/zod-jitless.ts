/**
 * The site's Content-Security-Policy allows no eval (script-src 'self'): zod must not even try its
 * `new Function` fast path (the attempt alone is a violation). Imported first by the entry, so it
 * runs before any module that builds a schema (zod and the forms load after it, in chunks of
 * their own). It was a script of its own in index.html: a request more before every page's first
 * paint, on a phone's HTTP/1.1 a connection's round trip (issue 57).
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
// The object zod reads (it keeps the one it finds): changed, not replaced.
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;

export {};
