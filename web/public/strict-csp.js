// The site's Content-Security-Policy allows no eval (script-src 'self'): zod must
// not even try its `new Function` fast path (the attempt alone is a violation).
// A classic script, deferred before the app's module script in index.html: it runs before the
// app's modules construct any schema.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
