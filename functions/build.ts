/**
 * Bundles each function of the route table's plan (`functionPlan` in
 * packages/api: one per area, the WebSocket routes, the schedules) with
 * esbuild into `dist/{id}/index.mjs` (and the chunks it loads on demand,
 * `dist/{id}/chunks/`) for Lambda (nodejs22.x, arm64). Each entry imports its
 * routes' handlers and dispatches by route key. The CDK stack deploys these
 * folders as they are.
 */
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ASYNC_FUNCTIONS, functionPlan, ORIGIN_SECRET_ROTATION } from '@curbside/api';
import { build, type Plugin } from 'esbuild';
import { areaRouteTable, areaTables } from './src/build/area-routes';
import { pureSchemas } from './src/build/pure-schemas';
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

/** Each function's entry: the plan's generated entries, the secret rotation and the asynchronous jobs. */
const entryOf: Record<string, string> = {
  ...Object.fromEntries(plans.map((plan) => [plan.id, `curbside-function:${plan.id}`])),
  [ORIGIN_SECRET_ROTATION.id]: join(root, ORIGIN_SECRET_ROTATION.source),
  ...Object.fromEntries(ASYNC_FUNCTIONS.map((fn) => [fn.id, join(root, fn.source)])),
};

/** The routes each function serves (by name): its route table holds their area tables. */
const served = (id: string): string[] => {
  const plan = plans.find((p) => p.id === id);
  return plan?.kind === 'http' ? plan.routes.map((route) => route.name) : [];
};
const tables = await areaTables();

await rm(out, { recursive: true, force: true });
// One build per function, each into its own folder (the folder is what the CDK stack deploys):
// with code splitting, what the function loads only on a rare path (a dynamic `import()`: the
// SDK's credential providers other than the environment's, the Lambda client, CSV parsing) is
// a chunk in `chunks/` that a cold start does not read (ADR 0019).
await Promise.all(
  Object.entries(entryOf).map(([id, entry]) =>
    build({
      entryPoints: { index: entry },
      outdir: join(out, id),
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
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
      plugins: [entries, zodEnglishOnly, areaRouteTable(tables, served(id)), pureSchemas],
      logLevel: 'warning',
    }),
  ),
);
const ids = [
  ...plans.map((plan) => plan.id),
  ORIGIN_SECRET_ROTATION.id,
  ...ASYNC_FUNCTIONS.map((fn) => fn.id),
];
console.log(`bundled ${ids.length} functions (${ids.join(', ')}) into ${out}`);
