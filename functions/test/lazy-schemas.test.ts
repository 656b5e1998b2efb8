import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as api from '@curbside/api';
import * as domain from '@curbside/domain';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazySchema } from '../src/build/lazy-schema';
import { markLazy, packageSchemaNames, schemaNamesOf } from '../src/build/lazy-schemas';
import { pureSchemas } from '../src/build/pure-schemas';

/**
 * The functions build makes the domain and API packages' zod schemas on first
 * use (ADR 0019, third pass). What a request sees must not change: the same
 * answers, the same messages, the same parsed values.
 */

const names = schemaNamesOf([
  {
    fileName: 'schemas.ts',
    source: [
      "export const id = z.coerce.number({ message: 'Invalid id' }).int('Invalid id');",
      'export const idParams = z.object({ id });',
      'export const requiredText = (label: string, max: number) => z.string().trim().min(1, label).max(max);',
    ].join('\n'),
  },
]);

describe('which values the build makes lazy', () => {
  it('finds the schema constants and helpers of the packages, and nothing that is not one', () => {
    const found = packageSchemaNames();
    for (const name of ['idParams', 'usernameSchema', 'gradeSchema', 'alertBodySchema', 'classroomIds'])
      expect(found.schemas.has(name), name).toBe(true);
    for (const name of ['requiredText', 'optionalPhone', 'day'])
      expect(found.helpers.has(name), name).toBe(true);
    // Every constant of the packages found a schema is one (checked on the sources as they run).
    const exported = { ...(domain as Record<string, unknown>), ...(api as Record<string, unknown>) };
    for (const name of found.schemas) {
      if (name in exported) expect(exported[name], name).toBeInstanceOf(z.ZodType);
    }
    for (const name of ['GRADES', 'QUEUE_STATUSES', 'routes', 'normalizeGrade', 'ROLE_RANK'])
      expect(found.schemas.has(name) || found.helpers.has(name), name).toBe(false);
  });

  it('wraps the outermost schema chain of a top-level const: a whole value, or a route body inside a table', () => {
    const source = [
      "export const idParams = z.object({ id, name: requiredText('Name', 50) });",
      'export const routesOf = areaRoutes({ x: route({ request: { params: idParams, body: idParams.extend({ n: z.number() }) } }) });',
      "export const named = requiredText('Name', 50).optional() as unknown as z.ZodType<string>;",
    ].join('\n');
    expect(markLazy(source, names, 'module.ts', '/lazy.ts')).toBe(
      [
        'import { lazySchema as __lazySchema } from "/lazy.ts";',
        "export const idParams = __lazySchema(() => z.object({ id, name: requiredText('Name', 50) }));",
        'export const routesOf = areaRoutes({ x: route({ request: { params: idParams, body: __lazySchema(() => idParams.extend({ n: z.number() })) } }) });',
        "export const named = __lazySchema(() => requiredText('Name', 50).optional()) as unknown as z.ZodType<string>;",
      ].join('\n'),
    );
  });

  it('wraps a chain only while its methods answer schemas, and leaves function bodies and other values alone', () => {
    const source = [
      "export const kinds = z.enum(['car', 'bus']).options;",
      'export const ok = id.safeParse(3).success;',
      'export const parseId = (value: unknown) => z.coerce.number().parse(value);',
      "export const GRADES = ['K', ...Array.from({ length: 12 }, (_, i) => String(i + 1))];",
      'let later = z.string();',
      'export const plain = id;',
    ].join('\n');
    expect(markLazy(source, names, 'module.ts', '/lazy.ts')).toBe(
      [
        'import { lazySchema as __lazySchema } from "/lazy.ts";',
        "export const kinds = __lazySchema(() => z.enum(['car', 'bus'])).options;",
        'export const ok = id.safeParse(3).success;',
        'export const parseId = (value: unknown) => z.coerce.number().parse(value);',
        "export const GRADES = ['K', ...Array.from({ length: 12 }, (_, i) => String(i + 1))];",
        'let later = z.string();',
        'export const plain = id;',
      ].join('\n'),
    );
    expect(markLazy('export const LIMIT = 5;', names)).toBe('export const LIMIT = 5;');
  });

  it('leaves out a name that is a schema in one file and something else in another', () => {
    const both = schemaNamesOf([
      { fileName: 'a.ts', source: 'export const limit = z.number().max(5);' },
      { fileName: 'b.ts', source: 'const limit = Math.max(1, 5);' },
    ]);
    expect(both.schemas.has('limit')).toBe(false);
  });
});

describe('a lazy schema', () => {
  it('is built on first use, once, and answers as the schema itself', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.object({ name: z.string().trim().min(1, 'Name is required') });
    });
    const inside = z.object({ person: schema });
    expect(builds).toBe(0);
    expect(schema.safeParse({ name: '  Ada ' })).toEqual({ success: true, data: { name: 'Ada' } });
    expect(schema).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(schema.shape)).toEqual(['name']);
    expect(inside.safeParse({ person: { name: ' ' } }).error?.issues[0]).toMatchObject({
      message: 'Name is required',
      path: ['person', 'name'],
    });
    expect(schema.extend({ age: z.number() }).safeParse({ name: 'A', age: 3 }).success).toBe(true);
    expect(schema.optional().safeParse(undefined).success).toBe(true);
    expect(() => schema.parse({})).toThrow(z.ZodError);
    expect(builds).toBe(1);
  });
});

/** Values a request may carry, for each field of a schema and for the whole of it. */
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  '  ',
  'abc',
  ' Abc ',
  '12',
  '-3',
  '3,7',
  '2024-05-01',
  '2024-05-01T15:00:00.000Z',
  'ada@example.org',
  '(555) 010-1234',
  'K',
  'car',
  'bus',
  'waiting',
  'completed',
  'bus_driver',
  'x'.repeat(300),
  '0123456789abcdef0123456789abcdef0123',
  12,
  -1,
  0,
  1.5,
  true,
  false,
  [],
  ['1', '2'],
  {},
];

const inputsFor = (schema: z.ZodType): unknown[] => {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const keys = shape && typeof shape === 'object' ? Object.keys(shape) : [];
  return [
    ...VALUES,
    ...VALUES.map((value) => Object.fromEntries(keys.map((key) => [key, value]))),
    ...keys.flatMap((key) => VALUES.map((value) => ({ [key]: value }))),
  ];
};

const answer = (schema: z.ZodType, input: unknown): string => {
  const result = schema.safeParse(structuredClone(input));
  return JSON.stringify(result.success ? { data: result.data } : { issues: result.error.issues });
};

describe('the packages as the functions build makes them', () => {
  let dir: string;
  let built: { routes: typeof api.routes; domain: Record<string, unknown>; api: Record<string, unknown> };
  let atImport = 0;

  beforeAll(async () => {
    const packages = fileURLToPath(new URL('../../packages/', import.meta.url));
    const result = await build({
      stdin: {
        contents: [
          `export * as api from ${JSON.stringify(join(packages, 'api/src/index.ts'))};`,
          `export * as domain from ${JSON.stringify(join(packages, 'domain/src/index.ts'))};`,
          `export { routes } from ${JSON.stringify(join(packages, 'api/src/index.ts'))};`,
        ].join('\n'),
        resolveDir: packages,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      plugins: [pureSchemas],
      logLevel: 'warning',
    });
    dir = mkdtempSync(join(tmpdir(), 'lazy-schemas-'));
    const file = join(dir, 'packages.mjs');
    writeFileSync(file, result.outputFiles[0]?.text ?? '');
    // zod calls this hook after making each schema (both copies of zod share it: the test's and the bundle's).
    // (zod sets it up when it loads: the test imported it.)
    const config = (globalThis as Record<string, unknown>).__zod_globalConfig as Record<string, unknown>;
    let made = 0;
    config.postProcessor = () => {
      made++;
    };
    built = await import(pathToFileURL(file).href);
    atImport = made;
    config.postProcessor = undefined;
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes no schema when it loads', () => {
    expect(atImport).toBe(0);
  });

  it('keeps every other value as it is', () => {
    for (const [exported, sources] of [
      [built.domain, domain],
      [built.api, api],
    ] as const) {
      for (const [name, value] of Object.entries(sources)) {
        const other = exported[name];
        expect(typeof other, name).toBe(typeof value);
        expect(Array.isArray(other), name).toBe(Array.isArray(value));
        if (value instanceof z.ZodType) expect(other, name).toBeInstanceOf(z.ZodType);
        else if (typeof value !== 'function') expect(JSON.stringify(other), name).toBe(JSON.stringify(value));
      }
    }
  });

  it("answers every route's parameters, query and body as the sources do: same data, same messages", () => {
    expect(Object.keys(built.routes).sort()).toEqual(Object.keys(api.routes).sort());
    let compared = 0;
    for (const [name, definition] of Object.entries(api.routes)) {
      const lazy = built.routes[name as keyof typeof api.routes];
      expect(JSON.stringify({ ...lazy, request: undefined }), name).toBe(
        JSON.stringify({ ...definition, request: undefined }),
      );
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = (definition.request as api.RouteRequest)[part];
        const other = (lazy.request as api.RouteRequest)[part];
        expect(other === undefined, `${name} ${part}`).toBe(schema === undefined);
        if (!schema || !other) continue;
        for (const input of inputsFor(schema)) {
          expect(answer(other, input), `${name} ${part} ${JSON.stringify(input)}`).toBe(
            answer(schema, input),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('answers every exported schema of the domain as the sources do', () => {
    for (const [name, value] of Object.entries(domain)) {
      if (!(value instanceof z.ZodType)) continue;
      const other = built.domain[name] as z.ZodType;
      for (const input of inputsFor(value)) {
        expect(answer(other, input), `${name} ${JSON.stringify(input)}`).toBe(answer(value, input));
      }
    }
  });
});
