/**
 * Bundles every handler with esbuild into `dist/{id}/index.mjs` for Lambda
 * (nodejs22.x, arm64). The CDK stack deploys these folders as they are.
 */
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { handlerModules } from './src/handlers';

const root = dirname(fileURLToPath(import.meta.url));
const out = join(root, 'dist');

await rm(out, { recursive: true, force: true });
const modules = handlerModules();
await build({
  entryPoints: Object.fromEntries(modules.map((m) => [`${m.id}/index`, join(root, m.source)])),
  outdir: out,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  // ESM bundles need a require for the SDK's CommonJS dependencies.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log(`bundled ${modules.length} handlers into ${out}`);
