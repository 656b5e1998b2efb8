import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';

/**
 * A script of the web app's own modules (`entry`, JSX resolved from `web/`) bundled with React's
 * production build as the app has it, and a browser to run it in, for the file's tests (issue 57:
 * how React draws what the app's hooks read, h57t, h57u).
 */
export const webBundleSuite = (entry: string) => {
  const suite = { browser: undefined as unknown as Browser, script: '' };
  beforeAll(async () => {
    const bundled = await build({
      stdin: {
        contents: entry,
        loader: 'jsx',
        resolveDir: fileURLToPath(new URL('../../web', import.meta.url)),
      },
      bundle: true,
      write: false,
      format: 'iife',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    suite.script = bundled.outputFiles[0]!.text;
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
  });
  return suite;
};
