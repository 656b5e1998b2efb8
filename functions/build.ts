/**
 * Bundles each function of the route table's plan (`functionPlan` in
 * packages/api: one per area, the WebSocket routes, the schedules) with
 * esbuild into `dist/{id}/index.mjs` for Lambda (nodejs22.x, arm64). Each
 * entry imports its routes' handlers and dispatches by route key. The CDK
 * stack deploys these folders as they are.
 */
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { functionPlan, IMPORT_JOBS, ORIGIN_SECRET_ROTATION } from '@curbside/api';
import { build, type Plugin } from 'esbuild';
import { zodEnglishOnly } from './src/build/zod-english-only';
import { functionEntry } from './src/handlers';

const root = dirname(fileURLToPath(import.meta.url));
const out = join(root, 'dist');
const plans = functionPlan();

/** `curbside-function:{id}` is the generated entry of that function. */
const entries: Plugin = {
  name: 'curbside-function-entries',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^curbside-function:/ }, (args) => ({
      path: args.path.slice('curbside-function:'.length),
      namespace: 'curbside-function',
    }));
    esbuild.onLoad({ filter: /.*/, namespace: 'curbside-function' }, (args) => {
      const plan = plans.find((p) => p.id === args.path);
      if (!plan) throw new Error(`No function ${args.path}`);
      return { contents: functionEntry(plan), loader: 'ts', resolveDir: root };
    });
  },
};

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: {
    ...Object.fromEntries(plans.map((plan) => [`${plan.id}/index`, `curbside-function:${plan.id}`])),
    [`${ORIGIN_SECRET_ROTATION.id}/index`]: join(root, ORIGIN_SECRET_ROTATION.source),
    [`${IMPORT_JOBS.id}/index`]: join(root, IMPORT_JOBS.source),
  },
  outdir: out,
  bundle: true,
  platform: 'node',
  // The ES module builds (the AWS SDK's dist-es): tree-shaken, unlike the CommonJS `main` a node build picks by default.
  mainFields: ['module', 'main'],
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
  plugins: [entries, zodEnglishOnly],
  logLevel: 'warning',
});
const ids = [...plans.map((plan) => plan.id), ORIGIN_SECRET_ROTATION.id, IMPORT_JOBS.id];
console.log(`bundled ${ids.length} functions (${ids.join(', ')}) into ${out}`);
