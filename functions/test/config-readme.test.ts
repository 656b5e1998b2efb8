import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every variable the functions' configuration reads has its row in the
 * README's "Environment variables" table, so whoever deploys or runs the
 * laptop can find what it does.
 */
const source = readFileSync(new URL('../src/lib/config.ts', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Lambda's own variables, set by its runtime: nobody sets them. */
const RUNTIME = new Set(['AWS_LAMBDA_FUNCTION_NAME']);

describe('the README', () => {
  it('lists every environment variable the configuration reads', () => {
    const read = new Set(
      [...source.matchAll(/\b(?:required|optional|positive)\(\s*'([A-Z][A-Z0-9_]+)'/g)].map(
        (m) => m[1] as string,
      ),
    );
    for (const variable of source.match(/FunctionVariable = ([^;]+);/)?.[1]?.match(/[A-Z][A-Z0-9_]+/g) ?? [])
      read.add(variable);
    const listed = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1] as string));
    expect(read.size).toBeGreaterThan(20);
    expect([...read].filter((name) => !RUNTIME.has(name) && !listed.has(name)).sort()).toEqual([]);
  });
});
