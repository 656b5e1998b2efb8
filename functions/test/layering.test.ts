import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 56's rules of the functions, kept: services take typed inputs (never
 * the API Gateway event, never a request body to parse), and every environment
 * variable is read in `lib/config.ts`.
 */
const src = fileURLToPath(new URL('../src/', import.meta.url));
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
const offending = (dir: string, pattern: RegExp, except: string[] = []) =>
  filesUnder(join(src, dir))
    .map((file) => relative(src, file))
    .filter((file) => !except.includes(file) && pattern.test(readFileSync(join(src, file), 'utf8')));

describe("the functions' layers", () => {
  it('no service imports aws-lambda, the HTTP chain or the request body reader', () => {
    expect(offending('services', /from '(aws-lambda|\.\.\/lib\/http|\.\.\/lib\/request-body)'/)).toEqual([]);
    expect(offending('services', /\bHttpEvent\b|APIGatewayProxyEvent/)).toEqual([]);
  });

  it('every environment variable is read in lib/config.ts (the bundler apart: it runs at build time)', () => {
    expect(offending('.', /process\.env\b/, ['lib/config.ts', 'build/bundle-imports.ts'])).toEqual([]);
  });
});
