import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIds } from '@curbside/api';

const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));

/** Where `functions/build.ts` writes one folder per function (ids from the route table's function plan). */
export const functionsDist = join(functionsDir, 'dist');

/** Function ids whose bundle `functions/dist/{id}/index.mjs` is missing. */
export const missingBundles = (dist = functionsDist): string[] =>
  bundleIds().filter((id) => !existsSync(join(dist, id, 'index.mjs')));

/**
 * Runs the functions build when a bundle is missing (a fresh checkout, or an
 * area that got its first route since the last build). It does not detect
 * stale bundles: `pnpm build` before a deploy.
 */
export const ensureFunctionBundles = (): void => {
  const missing = missingBundles();
  if (missing.length === 0) return;
  console.error(`Bundling Lambda functions (missing: ${missing.join(', ')})`);
  execSync('npx tsx build.ts', { cwd: functionsDir, stdio: ['ignore', 'inherit', 'inherit'] });
};
