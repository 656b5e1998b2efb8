import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * zod builds a schema when its module runs: the route table of a function and
 * the domain schemas it names cost 20–45 ms of a cold start, though a request
 * uses one route's. In the functions build, each zod schema written in the
 * value of a top-level `const` of the domain and API packages (a whole
 * `export const x = z.object(…)`, or a route's `body: z.object(…)` in an area
 * table) is made on first use instead: `lazySchema(() => z.object(…))`, a
 * proxy that builds the schema when it is first read (`lazy-schema.ts`). The
 * web client, the laptop runtime and the tests run the sources as they are
 * (ADR 0019, third pass).
 *
 * What counts as a schema, read from the source (no type checker): a chain of
 * calls that starts with one of zod's schema makers (`z.object(…)`,
 * `z.coerce.number(…)`), with a schema constant (`idParams.extend(…)`) or with
 * a call of a schema helper (`requiredText('Name', 50)`: a top-level arrow
 * function whose body is such a chain), and goes on with schema methods only
 * (`.trim()`, `.max(…)`, `.optional()`; `.safeParse(…)` or `.options` end it).
 * Its value is a schema, an object: the proxy stands in for it everywhere. A
 * plain reference to a schema constant is left alone (it is a proxy already).
 */

/** zod's functions that make a schema (`z.x(…)`), and those of `z.coerce` and `z.iso`. */
const MAKERS = new Set([
  'any',
  'array',
  'bigint',
  'boolean',
  'custom',
  'date',
  'discriminatedUnion',
  'email',
  'enum',
  'int',
  'intersection',
  'literal',
  'looseObject',
  'never',
  'null',
  'nullable',
  'number',
  'object',
  'optional',
  'pipe',
  'preprocess',
  'record',
  'strictObject',
  'string',
  'tuple',
  'undefined',
  'union',
  'unknown',
  'url',
  'uuid',
]);
const MAKER_NAMESPACES = new Set(['coerce', 'iso']);

/** Methods of a zod schema that answer another schema. */
const METHODS = new Set([
  'and',
  'array',
  'brand',
  'catch',
  'check',
  'default',
  'describe',
  'email',
  'endsWith',
  'extend',
  'finite',
  'gt',
  'gte',
  'includes',
  'int',
  'length',
  'lowercase',
  'lt',
  'lte',
  'max',
  'merge',
  'meta',
  'min',
  'multipleOf',
  'negative',
  'nonempty',
  'nonnegative',
  'nonpositive',
  'normalize',
  'nullable',
  'nullish',
  'omit',
  'optional',
  'or',
  'overwrite',
  'partial',
  'passthrough',
  'pick',
  'pipe',
  'positive',
  'prefault',
  'readonly',
  'refine',
  'regex',
  'required',
  'startsWith',
  'strict',
  'strip',
  'superRefine',
  'toLowerCase',
  'toUpperCase',
  'transform',
  'trim',
  'uppercase',
  'url',
  'uuid',
]);

/** The names of the schema constants and schema helpers of the domain and API packages. */
export interface SchemaNames {
  /** Top-level constants whose value is a schema (`idParams`, `usernameSchema`). */
  schemas: ReadonlySet<string>;
  /** Top-level arrow functions that answer a schema (`requiredText`, `day`). */
  helpers: ReadonlySet<string>;
}

const unwrap = (node: ts.Expression): ts.Expression => {
  let out = node;
  while (
    ts.isParenthesizedExpression(out) ||
    ts.isAsExpression(out) ||
    ts.isSatisfiesExpression(out) ||
    ts.isNonNullExpression(out)
  ) {
    out = out.expression;
  }
  return out;
};

/** Whether an expression is a schema chain (see above). */
const isSchemaChain = (node: ts.Expression, names: SchemaNames): boolean => {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return names.helpers.has(callee.text);
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const method = callee.name.text;
  const target = callee.expression;
  if (ts.isIdentifier(target)) {
    if (target.text === 'z') return MAKERS.has(method);
    return names.schemas.has(target.text) && METHODS.has(method);
  }
  if (
    ts.isPropertyAccessExpression(target) &&
    ts.isIdentifier(target.expression) &&
    target.expression.text === 'z' &&
    MAKER_NAMESPACES.has(target.name.text)
  ) {
    return true;
  }
  return METHODS.has(method) && isSchemaChain(target, names);
};

/** The declarations of a source's top-level `const` statements (what runs when its module loads). */
export const topLevelConsts = (file: ts.SourceFile): ts.VariableDeclaration[] =>
  file.statements
    .filter(ts.isVariableStatement)
    .filter((statement) => (statement.declarationList.flags & ts.NodeFlags.Const) !== 0)
    .flatMap((statement) => [...statement.declarationList.declarations]);

export const parse = (source: string, fileName: string) =>
  ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);

/**
 * What a top-level `const` declares, as far as schemas go: a helper (an arrow
 * function with an expression body) or a value, and whether that body or value
 * is a schema chain with the names known so far.
 */
const declared = (declaration: ts.VariableDeclaration, names: SchemaNames) => {
  if (!ts.isIdentifier(declaration.name) || !declaration.initializer) return undefined;
  const value = unwrap(declaration.initializer);
  const helper = ts.isArrowFunction(value) && !ts.isBlock(value.body);
  const body = helper ? unwrap(value.body as ts.Expression) : value;
  return { name: declaration.name.text, helper, chain: isSchemaChain(body, names) };
};

/**
 * The schema constants and helpers of some sources, by name (their imports
 * name them across files). A name that is a schema in one file and something
 * else in another is left out: it is not made lazy.
 */
export const schemaNamesOf = (sources: ReadonlyArray<{ source: string; fileName: string }>): SchemaNames => {
  const declarations = sources.flatMap(({ source, fileName }) => topLevelConsts(parse(source, fileName)));
  const schemas = new Set<string>();
  const helpers = new Set<string>();
  const names = { schemas, helpers };
  // A helper may use another (`optionalPhone` → `optionalText`), a constant another constant: to a fixed point.
  for (let changed = true; changed; ) {
    changed = false;
    for (const declaration of declarations) {
      const found = declared(declaration, names);
      const into = found?.helper ? helpers : schemas;
      if (found?.chain && !into.has(found.name)) {
        into.add(found.name);
        changed = true;
      }
    }
  }
  // Ambiguous names: declared elsewhere as something else.
  for (const declaration of declarations) {
    const found = declared(declaration, names);
    if (!found) continue;
    if (!found.chain || !found.helper) helpers.delete(found.name);
    if (!found.chain || found.helper) schemas.delete(found.name);
  }
  return names;
};

/** Where the build reads the domain and API packages' sources. */
const packagesDir = fileURLToPath(new URL('../../../packages/', import.meta.url));
export const PACKAGE_SOURCES = ['domain/src', 'api/src'].map((dir) => join(packagesDir, dir));

/** The schema names of the domain and API packages' sources. */
export const packageSchemaNames = (): SchemaNames =>
  schemaNamesOf(
    PACKAGE_SOURCES.flatMap((dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => join(entry.parentPath, entry.name))
        .map((fileName) => ({ fileName, source: readFileSync(fileName, 'utf8') })),
    ),
  );

/** The module `lazySchema` is imported from in the rewritten sources. */
export const LAZY_SCHEMA_MODULE = fileURLToPath(new URL('./lazy-schema.ts', import.meta.url));

/**
 * A source with each schema chain in the value of a top-level `const` (not
 * in a function it defines: that runs later) made lazy:
 * `lazySchema(() => chain)`. The outermost chain is wrapped; what it holds is
 * built with it.
 */
export const markLazy = (
  source: string,
  names: SchemaNames,
  fileName = 'module.ts',
  runtime = LAZY_SCHEMA_MODULE,
): string => {
  const file = parse(source, fileName);
  const spans: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isExpression(node) && isSchemaChain(node, names)) {
      spans.push([node.getStart(file), node.getEnd()]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  for (const declaration of topLevelConsts(file)) {
    if (declaration.initializer) visit(declaration.initializer);
  }
  if (spans.length === 0) return source;
  let out = source;
  for (const [start, end] of spans.sort((a, b) => b[0] - a[0])) {
    out = `${out.slice(0, start)}__lazySchema(() => ${out.slice(start, end)})${out.slice(end)}`;
  }
  return `import { lazySchema as __lazySchema } from ${JSON.stringify(runtime)};\n${out}`;
};
