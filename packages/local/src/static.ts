/** Serves the built web app (`web/dist`) the way S3 + CloudFront do, with the single-page-app fallback. */
import { createReadStream, existsSync, type Stats, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pbf': 'application/x-protobuf',
};

export const contentTypeOf = (file: string): string =>
  CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Curbside</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto">
<h1>The web app is not built yet</h1>
<p>Run <code>npm start</code>: it installs, builds the web app and starts Curbside.
The API under <code>/api</code> already works.</p>
</body></html>
`;

const statOf = (file: string): Stats | undefined => {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
};

const send = (
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  stats: Stats,
  cacheControl: string,
) => {
  response.writeHead(200, {
    'content-type': contentTypeOf(file),
    'content-length': stats.size,
    'cache-control': cacheControl,
    'last-modified': stats.mtime.toUTCString(),
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
};

/**
 * Answers a GET or HEAD for a non-API path from `webDist`: the file when it
 * exists (hashed `/assets/*` cached for a year, everything else revalidated),
 * otherwise `index.html` so client-side routes load. A missing file under
 * `/assets/` is a 404, so a stale page fails loudly instead of parsing HTML as
 * JavaScript.
 */
export const serveStatic = (
  webDist: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
): void => {
  const root = webDist ? resolve(webDist) : undefined;
  const index = root ? join(root, 'index.html') : undefined;
  if (!root || !index || !existsSync(index)) {
    response.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : NOT_BUILT);
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    decoded = '/';
  }
  const file = resolve(root, `.${decoded}`);
  if (file.startsWith(root + sep) && !decoded.includes('\0')) {
    const stats = statOf(file);
    if (stats?.isFile()) {
      const hashed = decoded.startsWith('/assets/');
      const cache = hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
      send(request, response, file, stats, file === index ? 'no-cache' : cache);
      return;
    }
    if (decoded.startsWith('/assets/')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : 'Not found');
      return;
    }
  }
  const stats = statOf(index);
  if (!stats) {
    response.writeHead(404).end();
    return;
  }
  send(request, response, index, stats, 'no-cache');
};
