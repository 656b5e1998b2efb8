import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const API_INDEX = fileURLToPath(new URL('../packages/api/src/index.ts', import.meta.url));
const VIRTUAL = '\0curbside-api-for-the-web';

/**
 * The web app calls the API through the route table (`routes.x`: its method, path and
 * content type), but the table also holds every route's request schemas, and with them
 * zod: ~25 KB gzip on every screen's first load that no screen runs (the server
 * validates). In the web build, `@curbside/api` is the package as it is with `routes`
 * replaced by the table's plain fields, read from the table itself at build time.
 */
export const routePathsOnly = (): Plugin => {
  let table: string | undefined;
  return {
    name: 'curbside-route-paths-only',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@curbside/api' && importer && !importer.startsWith(VIRTUAL)) return VIRTUAL;
      return undefined;
    },
    async load(id) {
      if (id !== VIRTUAL) return undefined;
      if (!table) {
        const { tsImport } = await import('tsx/esm/api');
        const api = (await tsImport(API_INDEX, import.meta.url)) as { routes: Record<string, object> };
        const plain = Object.fromEntries(
          Object.entries(api.routes).map(([key, route]) => [
            key,
            Object.fromEntries(
              Object.entries(route).filter(([, value]) =>
                ['string', 'number', 'boolean'].includes(typeof value),
              ),
            ),
          ]),
        );
        table = JSON.stringify(plain);
      }
      return `export * from ${JSON.stringify(API_INDEX)};\nexport const routes = ${table};\n`;
    },
  };
};
