/** Serves the built web app (`web/dist`) the way S3 + CloudFront do, with the single-page-app fallback. */
import { createReadStream, existsSync, type Stats, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { HASHED_ASSETS_PREFIX, PRECOMPRESSED, type SiteEncoding, siteCacheControl } from '@curbside/api';

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

/**
 * The encoding to answer with, of those the build left beside the file (`PRECOMPRESSED`, best
 * first), as the request's Accept-Encoding allows it (`br;q=0` refuses, `*` accepts the rest);
 * undefined: the file as it is.
 */
export const chooseEncoding = (
  acceptEncoding: string | undefined,
  available: readonly SiteEncoding[],
): SiteEncoding | undefined => {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    const q = params.find((param) => /^q=/i.test(param));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name.toLowerCase(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: string) => weights.get(encoding) ?? weights.get('*') ?? 0;
  return available.find((encoding) => weightOf(encoding) > 0);
};

const send = (
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  stats: Stats,
  path: string,
) => {
  const copies = PRECOMPRESSED.flatMap(({ encoding, suffix }) => {
    const copy = statOf(`${file}${suffix}`);
    return copy?.isFile() ? [{ encoding, file: `${file}${suffix}`, stats: copy }] : [];
  });
  const encoding = chooseEncoding(
    request.headers['accept-encoding'],
    copies.map((copy) => copy.encoding),
  );
  const chosen = copies.find((copy) => copy.encoding === encoding);
  response.writeHead(200, {
    'content-type': contentTypeOf(file),
    'content-length': (chosen?.stats ?? stats).size,
    ...(chosen ? { 'content-encoding': chosen.encoding } : {}),
    // A cache between keeps one answer per encoding.
    ...(copies.length > 0 ? { vary: 'Accept-Encoding' } : {}),
    'cache-control': siteCacheControl(path),
    'last-modified': stats.mtime.toUTCString(),
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(chosen?.file ?? file)
    .on('error', () => response.destroy())
    .pipe(response);
};

/**
 * Answers a GET or HEAD for a non-API path from `webDist`: the file when it
 * exists (hashed `/assets/*` cached for a year, everything else revalidated:
 * `siteCacheControl`), otherwise `index.html` so client-side routes load; as
 * Brotli or gzip when the build left that copy and the browser accepts it. A
 * missing file under `/assets/` is a 404, so a stale page fails loudly
 * instead of parsing HTML as JavaScript.
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
  // The precompressed copies are the build's, not the site's: CloudFront has none of them.
  const copy = PRECOMPRESSED.some(({ suffix }) => decoded.endsWith(suffix));
  if (file.startsWith(root + sep) && !decoded.includes('\0') && !copy) {
    const stats = statOf(file);
    if (stats?.isFile()) {
      send(request, response, file, stats, decoded);
      return;
    }
  }
  if (decoded.startsWith(HASHED_ASSETS_PREFIX)) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : 'Not found');
    return;
  }
  const stats = statOf(index);
  if (!stats) {
    response.writeHead(404).end();
    return;
  }
  send(request, response, index, stats, '/index.html');
};
