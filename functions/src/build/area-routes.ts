import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/**
 * The route table (`packages/api/src/routes/index.ts`) spreads every area's
 * routes into one object, and so builds every request schema of the product
 * when it loads (zod builds a schema when its module runs: tens of
 * milliseconds of a cold start). A function serves the routes of its area
 * only: in its bundle, the table is built from the area tables (`authRoutes`,
 * `inviteAuthRoutes`, …) that hold the routes its code names (`routes.x`) and
 * no other. The handlers, the laptop runtime and the web client are
 * unchanged: they read the whole table. A name found in no table fails the
 * build (ADR 0019).
 */

const routesDir = fileURLToPath(new URL('../../../packages/api/src/routes/', import.meta.url));
const functionsSrc = fileURLToPath(new URL('../', import.meta.url));
const routesIndex = join(routesDir, 'index.ts');

/** `routes.x` in a source file that imports `routes` from `@curbside/api`. */
const namedRoutes = (file: string): string[] => {
  const source = readFileSync(file, 'utf8');
  if (!/import\s*\{[^}]*\broutes\b[^}]*\}\s*from\s*'@curbside\/api'/.test(source)) return [];
  return [...source.matchAll(/\broutes\.(\w+)/g)].map((match) => match[1] as string);
};

/** The route names that code shared by every function names (`lib`, `services`, …: not the handlers). */
const sharedNames = (): string[] =>
  readdirSync(functionsSrc, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !['http', 'build'].includes(relative(functionsSrc, file).split(sep)[0] as string))
    .flatMap(namedRoutes);

interface AreaTable {
  /** The module under `packages/api/src/routes/`, without its extension. */
  module: string;
  exportName: string;
  names: Set<string>;
}

const isRouteTable = (
  value: unknown,
): value is Record<string, { name: string; method: string; path: string }> =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length > 0 &&
  Object.values(value).every(
    (route) =>
      typeof route === 'object' && route !== null && 'name' in route && 'method' in route && 'path' in route,
  );

/** Every area table of the route modules (`authRoutes` of `auth.ts`, the invite tables of `invites.ts`, …). */
export const areaTables = async (): Promise<AreaTable[]> => {
  const modules = readdirSync(routesDir)
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
  const tables: AreaTable[] = [];
  for (const module of modules) {
    const exports = (await import(pathToFileURL(join(routesDir, `${module}.ts`)).href)) as Record<
      string,
      unknown
    >;
    for (const [exportName, value] of Object.entries(exports).sort(([a], [b]) => a.localeCompare(b))) {
      if (isRouteTable(value)) tables.push({ module, exportName, names: new Set(Object.keys(value)) });
    }
  }
  return tables;
};

/**
 * The source of the route table in one function's bundle: the area tables
 * holding the routes the function serves (`served`, by name), and those its
 * handlers and the code every function shares name.
 */
export const areaRouteTableSource = (tables: readonly AreaTable[], served: readonly string[]): string => {
  const handlers = served.map((name) => join(functionsSrc, 'http', `${name}.ts`));
  const names = new Set([...served, ...handlers.flatMap(namedRoutes), ...sharedNames()]);
  const used = new Set<AreaTable>();
  for (const name of names) {
    const table = tables.find((t) => t.names.has(name));
    if (!table) throw new Error(`routes.${name} is in no route table of packages/api/src/routes`);
    used.add(table);
  }
  const chosen = tables.filter((table) => used.has(table));
  return [
    "export * from './shared';",
    ...chosen.map((t) => `import { ${t.exportName} } from './${t.module}';`),
    `export const routes = { ${chosen.map((t) => `...${t.exportName}`).join(', ')} };`,
    'export const routeList = Object.values(routes);',
    '',
  ].join('\n');
};

/** The esbuild plugin: the route table of a function that serves the routes `served` (by name). */
export const areaRouteTable = (tables: readonly AreaTable[], served: readonly string[]): Plugin => ({
  name: 'curbside-area-route-table',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]packages[\\/]api[\\/]src[\\/]routes[\\/]index\.ts$/ }, (args) =>
      args.path === routesIndex
        ? { contents: areaRouteTableSource(tables, served), loader: 'ts', resolveDir: routesDir }
        : undefined,
    );
  },
});
