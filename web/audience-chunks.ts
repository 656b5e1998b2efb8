import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The chunks of an audience's pages (ADR 0026). A phone on cellular pays for every request
 * (HTTP/1.1 on the laptop: six at a time), so the code an audience's screens share travels in
 * one chunk rather than in one per component:
 *
 * - `<audience>`: modules at least `shared` screens of the audience use and no other audience;
 * - `<audience>-kit`: modules at least `shared` screens of the audience use, and other audiences
 *   too (Mantine's components, the API client): screens of other audiences load it as well, and
 *   it holds no code of the audience itself;
 * - `<audience>` alone, its own code and its kit together (`oneChunk`: the staff shell), and
 *   `<screen>` for what one screen of an audience alone uses (`alone`: the front queue);
 * - anything else stays where Rolldown puts it (a screen's own code, what a lazy import inside a
 *   screen loads: the map, the charts), and what the entry imports is the app chunk.
 *
 * An audience is a routes file (`src/audiences/*.routes.ts`): its screens are the pages
 * (`*.page.tsx`) it imports lazily, and a screen uses what it imports statically, followed through re-exporting
 * barrels (`@mantine/core`, `@curbside/domain`) only to the modules that export what it
 * imports. The audiences are listed in order, phones first: a module goes to the chunks of the
 * first audience that uses it (if enough of its screens do), never to a later one's, so a parent
 * page never loads the staff's chunks; what a screen loads lazily (through any depth) is walked
 * apart, and a module an earlier audience loads so is left to Rolldown, so that a parent page's
 * lazy code (the dashboard's trusted adults) never loads them either. Our declaring packages (`packages/domain`, `packages/api`)
 * and packages imported whole (`import * as z from 'zod'`) are not followed: which of them a
 * screen uses is known only after tree-shaking, and Rolldown places them by what is really used
 * (but for an audience that takes the declaring modules its screens import by name, and no
 * earlier audience may reach: `declarations`, the driver page's).
 * A captured module's imports are not pulled after it (`includeDependenciesRecursively: false`):
 * they are counted for the same screens, so they are in the same chunk, an earlier audience's
 * or the app chunk, or left to Rolldown like the declaring packages.
 */
export interface Audience {
  name: string;
  /** The routes file, relative to the web app's root. */
  routes: string;
  /** Which of the modules it imports lazily are screens (default: the pages, `*.page.tsx`). */
  screens?: RegExp;
  /** How many of its screens must use a module for it to join the audience's chunks. */
  shared: number;
  /**
   * A screen alone (the bus driver's page): no `<audience>` chunk (what only its screen uses stays
   * in the screen's chunk), only the kit of what it shares with later audiences.
   */
  kitOnly?: boolean;
  /**
   * Its own code and its kit in one chunk, `<audience>`: for a layout every screen of the later
   * audiences that uses part of it is drawn in (the staff shell), where a second chunk would cost
   * each of them a request and save none of them a byte.
   */
  oneChunk?: boolean;
  /**
   * Screens of the audience whose code used by none of its other screens travels in one chunk,
   * `<screen>` (the page's name), with what it shares only with later audiences' screens (the
   * front queue's Table and placard codes, shared with administration screens, which load it
   * whole): for a screen a tablet opens first, where each chunk is a round trip.
   */
  alone?: RegExp;
  /**
   * Its kit also takes the modules of our declaring packages (`packages/domain`) its screens
   * import by name, unless an earlier audience's screens reach them (by name, or through another
   * of these modules' imports): each was a chunk of 1–2 KB, a round trip on a phone.
   */
  declarations?: boolean;
}

interface Info {
  id: string;
  code: string | null;
  exports: readonly string[];
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
}
/** A module to walk: with the names imported of it, `inside` when one of our declaring packages' modules imports it. */
interface Step {
  id: string;
  names: Set<string> | 'all';
  inside?: boolean;
}
interface Context {
  getModuleInfo(id: string): Info | null;
}

/** `export { a as b } from './x'` / `export * from './x'`: what a module re-exports, by specifier. */
const REEXPORT = /export\s*(\*|\{([^}]*)\})\s*from\s*["']([^"']+)["']/g;
const STATEMENTS_OF_A_BARREL =
  /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/|["']use client["'];?|import\s*["'][^"']+["'];?|export\s*(?:\*|\{[^}]*\})\s*from\s*["'][^"']+["'];?)*$/;
/** `import { a, b as c } from`, `import d, { e } from`: the names a module imports by name. */
const NAMED_IMPORT = /import\s*(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from/g;
/** `import * as z from 'zod'`: the specifiers a module imports whole. */
const NAMESPACE_SPECIFIER = /import\s*\*\s*as\s+[\w$]+\s+from\s*["']([^"']+)["']/g;
const NODE_MODULES = /[\\/]node_modules[\\/]/;
const MANTINE_BARREL = /[\\/]node_modules[\\/]@mantine[\\/]/;
/** A screen: a page module (`*.page.tsx`) a routes file imports lazily (not its layouts). */
const PAGE = /\.page\.[jt]sx?$/;
const LEFT_TO_ROLLDOWN = /[\\/]packages[\\/](domain|api)[\\/]src[\\/]|^\0curbside-api/;

const isBarrel = (info: Info) =>
  info.code !== null && /\bexport\b/.test(info.code) && STATEMENTS_OF_A_BARREL.test(info.code);

const importedNames = (info: Info): Set<string> => {
  const code = info.code ?? '';
  const names = new Set<string>();
  for (const [, list] of code.matchAll(NAMED_IMPORT)) {
    for (const item of (list as string).split(',')) {
      const name = item
        .trim()
        .split(/\s+as\s+/)[0]
        ?.replace(/^type\s+/, '');
      if (name) names.add(name);
    }
  }
  return names;
};

/** The value of `key` in `map`, made by `make` the first time. */
const once = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
  if (!map.has(key)) map.set(key, make());
  return map.get(key) as V;
};

/** The module `specifier` names among `candidates` (resolved ids), for a relative specifier. */
const resolvedAmong = (from: string, specifier: string, candidates: readonly string[]) => {
  if (!specifier.startsWith('.')) return candidates.filter((id) => id.includes(specifier));
  const base = resolve(dirname(from), specifier);
  return candidates.filter(
    (id) => id === base || (id.startsWith(base) && /^[./\\]/.test(id.slice(base.length))),
  );
};

/** The modules among `info`'s imports that it imports whole (`import * as React from 'react'`). */
const importedWhole = (info: Info): Set<string> => {
  const whole = new Set<string>();
  for (const [, specifier] of (info.code ?? '').matchAll(NAMESPACE_SPECIFIER)) {
    const spec = specifier as string;
    const found = spec.startsWith('.')
      ? resolvedAmong(info.id, spec, info.importedIds)
      : info.importedIds.filter((id) =>
          new RegExp(`[\\\\/]node_modules[\\\\/]${spec.replace(/[/.]/g, '\\$&')}[\\\\/.]`).test(id),
        );
    for (const id of found) whole.add(id);
  }
  return whole;
};

export const audienceChunks = (root: string, audiences: readonly Audience[]) => {
  const repository = resolve(root, '..');
  /**
   * `found`: module id → audience → the screens of it that use the module; for our declaring
   * packages' modules, `declared`: the same for the screens that import them by name, and
   * `reached`: the audiences whose screens reach them at all.
   */
  let usage: ReturnType<typeof walk> | undefined;

  const walk = (context: Context) => {
    // Each module's facts are read once: reading one from Rolldown copies its code.
    const infos = new Map<string, Info | null>();
    const ctx = { getModuleInfo: (id: string) => once(infos, id, () => context.getModuleInfo(id)) };
    const barrels = new Map<string, boolean>();
    const barrel = (info: Info) => once(barrels, info.id, () => isBarrel(info));
    /** What a barrel re-exports: the modules of each statement, and the names (none: `export *`). */
    const reexports = new Map<string, Array<{ targets: string[]; names?: string[] }>>();
    const reexportsOf = (info: Info) =>
      once(reexports, info.id, () =>
        [...(info.code ?? '').matchAll(REEXPORT)].map(([, star, list, specifier]) => ({
          targets: resolvedAmong(info.id, specifier as string, info.importedIds),
          ...(star === '*'
            ? {}
            : {
                names: (list as string).split(',').map(
                  (item) =>
                    item
                      .trim()
                      .split(/\s+as\s+/)
                      .pop()
                      ?.trim() ?? '',
                ),
              }),
        })),
      );
    const found = new Map<string, Map<string, Set<string>>>();
    const declared = new Map<string, Map<string, Set<string>>>();
    const reached = new Map<string, Set<string>>();
    /** The same for what the screens load lazily (`lazyReached`: the audiences). */
    const lazyFound = new Map<string, Map<string, Set<string>>>();
    const lazyReached = new Map<string, Set<string>>();
    const followed = new Set<string>();
    /** Counts `screen` among the users of `id` (`lazily`: through a lazy import); false when it was counted already. */
    const use = (id: string, audience: string, screen: string, lazily = false) => {
      const screens = once(
        once(lazily ? lazyFound : found, id, () => new Map<string, Set<string>>()),
        audience,
        () => new Set<string>(),
      );
      if (screens.has(screen)) return false;
      screens.add(screen);
      return true;
    };
    /**
     * The modules of barrel `barrel` that export one of `names`. Through a namespace import
     * (`import * as z from 'zod'`) none: what is used of it is not known here, and a module this
     * walk does not count stays where Rolldown puts it, with the screens that really use it.
     */
    const through = (from: Info, names: Set<string> | 'all'): string[] => {
      if (names === 'all') return [];
      const wanted: string[] = [];
      for (const { targets, names: exported } of reexportsOf(from)) {
        for (const target of targets) {
          const info = ctx.getModuleInfo(target);
          if (!info) continue;
          const wants = exported
            ? exported.some((name) => names.has(name))
            : barrel(info) || info.exports.some((name) => names.has(name));
          if (wants) wanted.push(target);
        }
      }
      return wanted;
    };
    /**
     * Walks `screen` of `audience` from `roots`, counting what it uses in `found`, `declared` and
     * `reached` (`lazily`: in `lazyFound` and `lazyReached`); answers the modules its code imports
     * lazily (a dialog, the trusted adults' cards drawn after the paint).
     */
    const walkScreen = (audience: string, screen: string, roots: string[], lazily: boolean) => {
      const lazy: string[] = [];
      const stack: Step[] = roots.map((id) => ({ id, names: 'all' }));
      while (stack.length > 0) {
        const { id, names, inside } = stack.pop() as Step;
        const info = ctx.getModuleInfo(id);
        if (!info) continue;
        if (barrel(info)) {
          // A package's barrel is a module of the build too: counted (but walked for every name
          // asked of it), else it was a chunk of its own on every staff screen (react-style-
          // singleton's, 34 bytes: a round trip). Not Mantine's: the entry imports through them.
          if (NODE_MODULES.test(id) && !MANTINE_BARREL.test(id)) use(id, audience, screen, lazily);
          for (const next of through(info, names)) stack.push({ id: next, names });
          continue;
        }
        // Our declaring packages (rules, schemas, the route table): a screen uses a few names of
        // a module, and what the module imports serves the others. Which of it stays is known only
        // after tree-shaking: Rolldown places these modules (unless an audience takes them:
        // `declarations`), and from them only their imports of each other are followed, to count
        // which audiences may reach a module, never to place what they import.
        if (LEFT_TO_ROLLDOWN.test(id)) {
          if (!inside && !lazily)
            once(
              once(declared, id, () => new Map()),
              audience,
              () => new Set(),
            ).add(screen);
          once(lazily ? lazyReached : reached, id, () => new Set<string>()).add(audience);
          const key = `${lazily}\0${audience}\0${screen}\0${id}`;
          if (followed.has(key)) continue;
          followed.add(key);
          for (const next of info.importedIds)
            if (LEFT_TO_ROLLDOWN.test(next)) stack.push({ id: next, names: 'all', inside: true });
          continue;
        }
        if (!use(id, audience, screen, lazily)) continue;
        lazy.push(...info.dynamicallyImportedIds);
        const imported = importedNames(info);
        const whole = importedWhole(info);
        for (const next of info.importedIds) {
          // A package imported whole (`import * as z from 'zod'`) is not followed: which of it is
          // used is not known here (the domain's schemas drop out of most screens). The module's
          // other imports are, by the names it imports (h57c: react-remove-scroll's, beside its
          // `import * as React`, were not, and became chunks of their own on every staff screen).
          if (whole.has(next) && NODE_MODULES.test(next)) continue;
          stack.push({ id: next, names: whole.has(next) ? 'all' : imported });
        }
      }
      return lazy;
    };
    for (const audience of audiences) {
      const routes = ctx.getModuleInfo(resolve(root, audience.routes));
      if (!routes) throw new Error(`${audience.routes} is not part of the build`);
      for (const screen of routes.dynamicallyImportedIds.filter((id) =>
        (audience.screens ?? PAGE).test(id),
      )) {
        // What the screen loads lazily, through any depth: counted apart (h57c), so that no later
        // audience's chunk takes a module of it (the dashboard's trusted adults, drawn after its
        // paint, import the domain's `parent` module, which the car line's kit would have taken).
        let lazy = walkScreen(audience.name, screen, [screen], false);
        while (lazy.length > 0) lazy = walkScreen(audience.name, screen, lazy, true);
      }
    }
    return { found, declared, reached, lazyFound, lazyReached };
  };

  /**
   * Whether an audience before `audience` loads the module lazily (`users`: the audiences): then
   * it is left to Rolldown, so that no later audience's chunk comes with that lazy code.
   */
  const lazilyBefore = (audience: Audience, users: Map<string, unknown> | Set<string> | undefined) =>
    audiences.slice(0, audiences.indexOf(audience)).some((earlier) => users?.has(earlier.name));

  /** `<screen>` for a module only one of the audience's screens uses, if that screen is `alone`. */
  const alone = (audience: Audience, screens: Set<string> | undefined) => {
    const [screen, ...others] = screens ?? [];
    if (!screen || others.length > 0 || !audience.alone?.test(screen)) return undefined;
    return basename(screen).replace(/\.page\.[jt]sx?$/, '');
  };

  /** Where one of our declaring packages' modules goes: the kit of an audience that takes them. */
  const placeOfDeclaration = (id: string, { declared, reached, lazyReached }: NonNullable<typeof usage>) => {
    const reachedBy = reached.get(id);
    const first = audiences.find((audience) => reachedBy?.has(audience.name));
    if (!first?.declarations || lazilyBefore(first, lazyReached.get(id))) return undefined;
    // One chunk every later screen that may reach the module loads anyway: taken even when it is
    // reached only through another declaring module's import (`ways`, through `way-calls`).
    if (first.oneChunk) return first.name;
    const screens = declared.get(id)?.get(first.name);
    if ((screens?.size ?? 0) < first.shared) return alone(first, screens);
    if ((reachedBy?.size ?? 0) > 1) return `${first.name}-kit`;
    return first.kitOnly ? undefined : first.name;
  };

  const placeOf = (id: string, ctx: Context) => {
    usage ??= walk(ctx);
    if (LEFT_TO_ROLLDOWN.test(id)) return placeOfDeclaration(id, usage);
    const users = usage.found.get(id);
    if (!users) return undefined;
    // The first audience that uses the module decides: where a phone screen uses it, it never
    // goes to a later audience's chunks (a parent page would load the staff kit for it).
    const first = audiences.find((audience) => users.has(audience.name));
    if (!first || lazilyBefore(first, usage.lazyFound.get(id))) return undefined;
    const screens = users.get(first.name);
    if ((screens?.size ?? 0) < first.shared) return alone(first, screens);
    if (first.oneChunk) return first.name;
    if (users.size > 1) return `${first.name}-kit`;
    return first.kitOnly ? undefined : first.name;
  };

  return {
    /** The code an audience's screens share with other audiences (higher priority: taken first). */
    kit: (id: string, ctx: Context) => {
      const place = placeOf(id, ctx);
      return place?.endsWith('-kit') ? place : null;
    },
    /** The code only an audience's screens use. */
    own: (id: string, ctx: Context) => {
      const place = placeOf(id, ctx);
      return place && !place.endsWith('-kit') ? place : null;
    },
    /**
     * Forgets the module graph when a build starts (`vite build --watch`, a second build), and
     * writes what each chunk holds to `manifest` (outside the site: for the tests that check
     * what a page loads, `test/browser/audiences.test.ts`).
     */
    plugin: (manifest: string): Plugin => ({
      name: 'curbside-audience-chunks',
      apply: 'build',
      buildStart() {
        usage = undefined;
      },
      generateBundle(_, bundle) {
        const name = (id: string) => {
          const path = id.replace(/\0/g, '');
          const inPackage = path.lastIndexOf('/node_modules/');
          return inPackage >= 0 ? path.slice(inPackage + 1) : relative(repository, path);
        };
        const chunks = Object.values(bundle).flatMap((chunk) =>
          chunk.type === 'chunk'
            ? [{ file: chunk.fileName, name: chunk.name, modules: Object.keys(chunk.modules).map(name) }]
            : [],
        );
        const screens = Object.fromEntries(
          audiences.map((audience) => [
            audience.name,
            (this.getModuleInfo(resolve(root, audience.routes))?.dynamicallyImportedIds ?? [])
              .filter((id) => (audience.screens ?? PAGE).test(id))
              .map(name),
          ]),
        );
        mkdirSync(dirname(manifest), { recursive: true });
        writeFileSync(manifest, `${JSON.stringify({ chunks, screens }, null, 1)}\n`);
      },
    }),
  };
};

/** A package's index (`@mantine/hooks`'s): re-exports all of it, so a closure does not go through it. */
const PACKAGE_INDEX = /[\\/]esm[\\/]index\.mjs$/;

/**
 * A group (Rolldown's `codeSplitting.groups[].name`): `name` for the modules `entries` (files of
 * the web app's `node_modules`) import statically, through any depth (not through a package's
 * index: name the modules wanted through it among `entries`), themselves included, less those
 * `except` matches and those `other` groups take; nothing for the rest. Read when Rolldown first
 * asks (the imports of a package's modules do not change between builds).
 */
export const withinClosureOf = (
  entries: string[],
  name: string,
  { except, other = [] }: { except?: RegExp; other?: string[] } = {},
) => {
  let members: Set<string> | undefined;
  const closure = (ctx: Context, roots: string[]) => {
    const found = new Set<string>();
    const stack = roots.map((root) => realpathSync(resolve(import.meta.dirname, 'node_modules', root)));
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (found.has(next) || PACKAGE_INDEX.test(next)) continue;
      found.add(next);
      stack.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
    return found;
  };
  return (id: string, ctx: Context) => {
    if (!members) {
      const taken = closure(ctx, other);
      members = new Set(
        [...closure(ctx, entries)].filter((member) => !taken.has(member) && !except?.test(member)),
      );
    }
    return members.has(id) ? name : null;
  };
};
