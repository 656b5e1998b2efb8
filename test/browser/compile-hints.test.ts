import { expect, it } from 'vitest';
import { browserSuite } from '../support/browser-suite';

/**
 * Issue 57 (`web/compile-hints.ts`): the entry every page runs before its first paint opens with
 * V8's compile hint, so a phone compiles it as it downloads, off the main thread, as served (its
 * Brotli copy included); the chunks loaded later do not carry it.
 */
const suite = browserSuite();
const HINT = '//# allFunctionsCalledOnLoad\n';

const served = async (path: string, encoding = 'identity') => {
  const response = await fetch(new URL(path, suite.server.url), { headers: { 'Accept-Encoding': encoding } });
  expect(response.status).toBe(200);
  const body = Buffer.from(await response.arrayBuffer());
  return { encoding: response.headers.get('content-encoding'), body };
};

it('serves the entry opening with the compile hint, and a lazy chunk without it', async () => {
  const html = (await served('/')).body.toString();
  const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
  expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
  expect((await served(entry!)).body.toString().startsWith(HINT)).toBe(true);
  const brotli = await served(entry!, 'br');
  expect(brotli.encoding).toBe('br');
  // fetch decodes what it was sent: the Brotli copy, as a phone gets it.
  expect(brotli.body.toString().startsWith(HINT)).toBe(true);

  // The sign-in's page, loaded lazily by the router: named in the entry's preload list.
  const lazy = /"(assets\/login\.page-[\w-]+\.js)"/.exec((await served(entry!)).body.toString())?.[1];
  expect(lazy).toBeDefined();
  const chunk = (await served(`/${lazy}`)).body.toString();
  expect(chunk.length).toBeGreaterThan(0);
  expect(chunk.startsWith('//#')).toBe(false);
});
