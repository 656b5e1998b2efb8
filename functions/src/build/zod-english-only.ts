import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * zod's namespace (`import { z } from 'zod'`) re-exports every locale's error
 * messages (`z.locales`, ~260 KB minified), which a bundler cannot leave out of
 * a namespace object. Curbside uses only English, the default zod sets up from
 * `locales/en.js` itself: the locales index is built as English alone.
 */
export const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
