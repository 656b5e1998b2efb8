import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import ts from 'typescript';
import { markLazy, packageSchemaNames, parse, topLevelConsts } from './lazy-schemas';

/**
 * A zod schema is built when its module runs (`export const x = z.object(…)`),
 * and a bundler keeps every such call: it cannot know that building a schema
 * has no side effect. A function that imports one helper of a domain module
 * (`fullName` of `roster.ts`) so built all of that module's schemas at each
 * cold start. In the functions build, every call in the value of a top-level
 * `const` of the domain and API packages (`z.object({ name:
 * requiredText(…) })`, `areaRoutes(…)`; not the calls inside a function it
 * defines) is marked `/* @__PURE__ *\/`, so esbuild leaves out the constants
 * that the function's code never reaches (ADR 0019).
 *
 * The rule this relies on: in `packages/domain/src` and `packages/api/src`, a
 * top-level `const` is computed for its value, never for a side effect (no
 * registry, no I/O). The laptop runtime, the tests and the web client run the
 * sources as they are.
 */
export const markPure = (source: string, fileName = 'module.ts'): string => {
  const file = parse(source, fileName);
  const starts = new Set<number>();
  const visit = (node: ts.Node): void => {
    // A function's body runs when it is called, not when the module loads.
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) starts.add(node.getStart(file));
    ts.forEachChild(node, visit);
  };
  for (const declaration of topLevelConsts(file)) {
    if (declaration.initializer) visit(declaration.initializer);
  }
  let out = source;
  for (const start of [...starts].sort((a, b) => b - a)) {
    out = `${out.slice(0, start)}/* @__PURE__ */ ${out.slice(start)}`;
  }
  return out;
};

/**
 * The esbuild plugin: the domain and API packages' schemas made on first use
 * (`lazy-schemas.ts`), then their top-level constants marked pure.
 */
export const pureSchemas: Plugin = {
  name: 'curbside-pure-schemas',
  setup(esbuild) {
    const names = packageSchemaNames();
    esbuild.onLoad({ filter: /[\\/]packages[\\/](domain|api)[\\/]src[\\/].*\.ts$/ }, async (args) => ({
      contents: markPure(markLazy(await readFile(args.path, 'utf8'), names, args.path), args.path),
      loader: 'ts',
    }));
  },
};
