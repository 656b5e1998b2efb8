/**
 * Cold starts in the report: each function bundle's bytes and import time
 * (`functions/src/build/bundle-imports.ts`, measured by `run.ts` after the
 * rush, the server stopped), and the budget: every HTTP and WebSocket function
 * imports in under 150 ms of CPU (ADR 0019).
 */
import {
  type BundleImport,
  budgeted,
  bundleTable,
  IMPORT_BUDGET_MS,
} from '@curbside/functions/build/bundle-imports';
import type { BudgetCheck } from './types';

export type { BundleImport };

export const bundleLines = (bundles: readonly BundleImport[] | undefined): string[] =>
  bundles
    ? [
        ...bundleTable(bundles),
        'Median of 5 fresh Node processes each; the budget is on the CPU time. Bytes: the whole function folder (index.mjs and the chunks it loads on demand).',
      ]
    : ['Not measured (the smoke run measures no bundles).'];

export const bundleBudgetChecks = (bundles: readonly BundleImport[] | undefined): BudgetCheck[] => {
  if (!bundles) return [];
  const served = bundles.filter(budgeted);
  const slowest = served.reduce<BundleImport | undefined>(
    (worst, row) => (worst && worst.cpuMs >= row.cpuMs ? worst : row),
    undefined,
  );
  return [
    {
      budget: `Every HTTP and WebSocket function bundle imports in under ${IMPORT_BUDGET_MS} ms (CPU, cold start)`,
      value: slowest ? `${slowest.cpuMs.toFixed(0)} ms at the slowest (${slowest.id})` : 'no bundle measured',
      pass: served.length > 0 && served.every((row) => row.cpuMs < IMPORT_BUDGET_MS),
    },
  ];
};
