import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import mantine from 'postcss-preset-mantine';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { audienceChunks, withinClosureOf } from './audience-chunks';
import { compileHints } from './compile-hints';
import { mantineStableIds } from './mantine-ids';
import { mantineComponentStyles } from './mantine-styles';
import { precompress } from './precompress';
import { pureDeclarations } from './pure-declarations';
import { routePathsOnly } from './route-paths';
import { routePreload } from './route-preload';

/** Where `vite dev` sends API and live-connection calls: the laptop runtime (`pnpm serve`). */
const apiTarget = process.env.CURBSIDE_API ?? 'http://localhost:3000';

/**
 * The screens a tablet must be able to reload without a connection (with the
 * staff screens' layouts, the sign-in and the home redirect): their code is precached by the
 * service worker; every other screen's code is cached once it was used.
 */
const OFFLINE_SCREENS = [
  'src/features/live/live.layout',
  'src/features/shell/shell.layout',
  'src/features/home/home.page',
  'src/features/auth/login.page',
  'src/features/front-queue/front-queue.page',
  'src/features/back-queue/back-queue.page',
  // The toasts' container loads with the first toast, which may come while the tablet is offline.
  'src/components/toasts',
];

/**
 * Emits `sw.js` (web/service-worker/sw.js) with the build's version and its
 * precache list: index.html, the public files, the entry and the offline
 * screens' chunks with everything they import and their CSS.
 */
const serviceWorker = (): Plugin => ({
  name: 'curbside-service-worker',
  apply: 'build',
  // After Vite's CSS plugin has taken out the chunks that held only CSS (a lazy stylesheet's):
  // a precached file that is not in the build fails the worker's install.
  enforce: 'post',
  generateBundle(_, bundle) {
    const outputs = Object.values(bundle);
    const chunks = new Map(
      outputs.flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output]] : [])),
    );
    const wanted = new Set<string>();
    const visit = (fileName: string, dynamic: boolean) => {
      if (wanted.has(fileName)) return;
      // A lazy stylesheet's placeholder chunk, taken out of the build, stays named in its
      // importer's dynamic imports: only what the build writes is precached.
      if (!(fileName in bundle)) return;
      wanted.add(fileName);
      const chunk = chunks.get(fileName);
      if (!chunk) return;
      for (const css of chunk.viteMetadata?.importedCss ?? []) wanted.add(css);
      for (const imported of chunk.imports) visit(imported, dynamic);
      if (dynamic) for (const imported of chunk.dynamicImports) visit(imported, dynamic);
    };
    for (const chunk of chunks.values()) {
      // A grouped chunk (web/audience-chunks.ts) has no facade: the modules it holds decide.
      const screen = OFFLINE_SCREENS.some((path) => chunk.moduleIds.some((id) => id.includes(path)));
      if (chunk.isEntry || screen) visit(chunk.fileName, screen);
    }
    // The opened screen's early hints (web/route-preload.ts), named by index.html.
    for (const fileName of Object.keys(bundle))
      if (fileName.startsWith('assets/route-preload-')) wanted.add(fileName);
    const publicFiles = readdirSync('public');
    const precache = [
      '/index.html',
      ...publicFiles.map((file) => `/${file}`),
      ...[...wanted].sort().map((file) => `/${file}`),
    ];
    const version = createHash('sha256');
    for (const file of precache) version.update(file);
    const index = bundle['index.html'];
    if (index?.type === 'asset') version.update(index.source);
    for (const file of publicFiles) version.update(readFileSync(`public/${file}`));
    const source = readFileSync('service-worker/sw.js', 'utf8')
      .replace('__CURBSIDE_VERSION__', version.digest('hex').slice(0, 16))
      .replace('__CURBSIDE_PRECACHE__', JSON.stringify(precache));
    this.emitFile({ type: 'asset', fileName: 'sw.js', source });
  },
});

/**
 * A lazy import preloads only the chunks its importer has not loaded already: every chunk the
 * importer imports statically ran before it, so naming it again in the preload list (written into
 * the importer) only adds bytes. The queue list's lazy details dialog named 44 chunks, 41 of them
 * loaded with the queue (about 500 B gzip on the car-line screens' first load).
 */
let builtChunks: Rolldown.OutputBundle | undefined;
const keepBundle = (): Plugin => ({
  name: 'curbside-keep-bundle',
  apply: 'build',
  generateBundle(_, bundle) {
    builtChunks = bundle;
  },
});
const loadedWith = (fileName: string, found = new Set<string>()): Set<string> => {
  const chunk = builtChunks?.[fileName];
  if (found.has(fileName) || chunk?.type !== 'chunk') return found;
  found.add(fileName);
  for (const imported of chunk.imports) loadedWith(imported, found);
  return found;
};

/**
 * The audiences (web/src/audiences, ADR 0026), phones first: what the parent portal's screens
 * share travels in one or two chunks, then the sign-in's, the public screens', the car line's;
 * the other staff screens' code stays where Rolldown puts it.
 */
const audiences = audienceChunks(import.meta.dirname, [
  { name: 'parent', routes: 'src/audiences/parent.routes.ts', shared: 2 },
  { name: 'sign-in', routes: 'src/audiences/sign-in.routes.ts', shared: 2 },
  // The bus driver's page alone (issue 57): what it shares with the map, the display and the
  // staff, the domain's modules it imports included, in one chunk (it loaded nine of 1–2 KB).
  {
    name: 'driver',
    routes: 'src/audiences/public.routes.ts',
    shared: 1,
    screens: /[\\/]bus-driver\.page\.tsx$/,
    kitOnly: true,
    declarations: true,
  },
  {
    name: 'public',
    routes: 'src/audiences/public.routes.ts',
    shared: 2,
    screens: /[\\/](bus-tracking|display)\.page\.tsx$/,
  },
  // What the app loads lazily on any page (the toasts, the not-found page): counted, so that
  // what only it and the staff use is not left where a staff chunk could take it.
  { name: 'app-lazy', routes: 'src/App.tsx', shared: 1, screens: /./ },
  // The staff shell (h57c): every staff screen is drawn in it, so what it uses and no phone page
  // does travels in one chunk, with the domain's modules it imports by name (each of them was a
  // chunk of 1–2 KB: sessions, unreleased, way-calls, parent, parent-invites, a round trip each).
  {
    name: 'staff-shell',
    routes: 'src/audiences/staff.routes.ts',
    shared: 1,
    screens: /[\\/]shell\.layout\.tsx$/,
    oneChunk: true,
    declarations: true,
  },
  // The staff screens of the car line, on tablets all afternoon: what two of them share travels together.
  {
    name: 'car-line',
    routes: 'src/audiences/staff.routes.ts',
    shared: 2,
    screens: /[\\/](front-queue|back-queue|teacher)\.page\.tsx$/,
    // Its kit takes the domain's modules two of them import by name (h57c: `parent` and
    // `parent-invites`, chunks of 1 KB each) unless a phone page reaches them. What the front queue
    // alone of the three uses travels with its page (`alone`): its Table and `placard-code` too,
    // which administration screens use (they load the front queue's page with them, 4.5 KB Brotli).
    declarations: true,
    alone: /[\\/]front-queue\.page\.tsx$/,
  },
  // Counted (a module the staff screens use too goes to a kit, not to an audience's own chunk)
  // but never grouped: the staff screens share little with each other, and a chunk of what four
  // of them use brought the front queue 28 KB gzip it does not run (zod with the rosters' rules).
  { name: 'staff', routes: 'src/audiences/staff.routes.ts', shared: Number.POSITIVE_INFINITY },
]);

/**
 * Mantine's Select and what it brings in two chunks (issue 57): on HTTP/1.1 each chunk and
 * stylesheet costs a phone a round trip, and a Select came in nine chunks and six stylesheets.
 * The popover's (the Popover and floating-ui, the FocusTrap, the Portal, the ScrollArea: the car-line
 * screens' menus use them too, so they load nothing more) and the Select's own (the Combobox):
 * both signed-in phone pages draw one (the parent dashboard's change forms, the driver page's
 * bus). The VisuallyHidden stays apart (the sign-in uses it alone). What an audience's chunks or
 * the entry hold stays there (higher priority).
 */
const MANTINE = '@mantine/core/esm/components';
const HOOKS = '@mantine/hooks/esm';
const POPOVER = [
  `${MANTINE}/Popover/Popover.mjs`,
  `${MANTINE}/ScrollArea/ScrollArea.mjs`,
  `${HOOKS}/use-click-outside/use-click-outside.mjs`,
  `${HOOKS}/use-focus-trap/use-focus-trap.mjs`,
  `${HOOKS}/use-debounced-callback/use-debounced-callback.mjs`,
  `${HOOKS}/use-focus-return/use-focus-return.mjs`,
];
const VISUALLY_HIDDEN = /[\\/]VisuallyHidden[\\/.]/;
const popoverKit = withinClosureOf(POPOVER, 'popover-kit', { except: VISUALLY_HIDDEN });
const selectKit = withinClosureOf(
  [`${MANTINE}/Select/Select.mjs`, `${HOOKS}/use-previous/use-previous.mjs`],
  'select-kit',
  { except: VISUALLY_HIDDEN, other: POPOVER },
);
/**
 * The audiences' kits, but only the parent portal's and the sign-in's take anything of the
 * Select's two chunks (h57h, h57g): neither phone page draws a Select in its first paint any
 * more (the dashboard's change forms use the phone's own picker, the driver page loads its
 * Select after its paint), so a later audience became the first to use the Select's modules and
 * its kit took them: the driver's (every staff screen with a menu would have loaded it for its
 * popover) or the car line's (the driver's and the dashboard's lazy Select and radios would have
 * loaded the staff queries with it). They stay in `popover-kit` and `select-kit`.
 */
/**
 * The live connection and what is drawn with it (h57c): the parent dashboard and every staff
 * screen load the live layout (0.3 KB), the connection (3.6 KB Brotli) and the school's clock
 * (0.6 KB), and no other page loads any of them: three chunks, three round trips on a phone,
 * now one.
 */
const LIVE =
  /[\\/]web[\\/]src[\\/]features[\\/]live[\\/]|[\\/]packages[\\/]domain[\\/]src[\\/](school-clock|wait)\.ts$|[\\/]packages[\\/]api[\\/]src[\\/]events\.ts$/;
const live: Group = (id) => (LIVE.test(id) ? 'live' : null);

type Group = (id: string, ctx: Parameters<typeof audiences.kit>[1]) => string | null;

/**
 * Mantine's Grid with the staff shell (h57q): only staff screens use it (the front queue's
 * columns, the teacher's, the back queue's, the school admin's), every one of them loads the
 * shell's chunk, and in the car line's kit it brought the front queue that kit (the lists' code,
 * loaded after its keypad's paint) and its stylesheet before the keypad's paint.
 */
const GRID = /[\\/]@mantine[\\/]core[\\/](esm[\\/]components[\\/]Grid[\\/]|styles[\\/]Grid\.layer\.css$)/;
/**
 * What the front queue, the driver page, the dashboard and the sign-in load before their first
 * paint in chunks of their own, in the parent portal's kit, which every one of them loads already
 * (h57w; h57s left it undecided): the domain's `roles` (0.44 KB Brotli) and `format` (0.5 KB),
 * Mantine's Badge (0.7 KB and its stylesheet, 0.7 KB) and the sign-in's kit (VisuallyHidden,
 * Divider, SimpleGrid: 1.2 KB and a stylesheet of 0.5 KB). Six requests fewer before the front
 * queue's keypad (a wave of six on HTTP/1.1), five before the driver page's, three before the
 * dashboard's and the sign-in's; the parent sign-in and the invite pages load about 4 KB they do not
 * run, the dashboard 2 KB (ADR 0026, h57w: measured against their budget). Every chunk that imports
 * one of them loads the parent kit already.
 */
const PARENT_KIT_TAKES = ['packages/domain/src/roles.ts', 'packages/domain/src/format.ts'];
const BADGE = /[\\/]@mantine[\\/]core[\\/](esm[\\/]components[\\/]Badge[\\/]|styles[\\/]Badge\.layer\.css$)/;
/**
 * Two of the domain's modules with the chunk every chunk that loads them loads already (h57s): each
 * was a chunk of its own (0.3–0.7 KB Brotli), a request before the front queue's keypad (and the
 * driver page's, the map's and the display's first paint for `queue`). The audiences leave them to
 * Rolldown because a parent page reaches them through another domain module (`school-settings`),
 * whose code using them it does not load. `queue`: the driver's kit imports it, and so does every
 * other chunk that imports it but staff chunks, which load that kit through the staff shell.
 * `sessions`: only staff chunks import it (the shell, the session dialog, `school-settings`, which
 * only staff screens load). Held by `audiences.test.ts` (no phone page loads a staff chunk, nor
 * the sign-ins and the dashboard the driver's kit).
 */
const WITH_ITS_LOADERS = new Map([
  ['packages/domain/src/queue.ts', 'driver-kit'],
  ['packages/domain/src/sessions.ts', 'staff-shell'],
  // h57y: the shell's, which its header's menus (loaded after the paint) import too.
  ['packages/domain/src/ways.ts', 'staff-shell'],
  ['packages/domain/src/way-calls.ts', 'staff-shell'],
  ...PARENT_KIT_TAKES.map((module) => [module, 'parent-kit'] as const),
]);
const DOMAIN_MODULE = /[\\/](packages[\\/]domain[\\/]src[\\/][\w-]+\.ts)$/;
const withItsLoaders = (id: string) => {
  const module = DOMAIN_MODULE.exec(id)?.[1]?.replace(/\\/g, '/');
  return module ? (WITH_ITS_LOADERS.get(module) ?? null) : null;
};
/**
 * The car line's queries with the staff shell, which draws with them (the queue's undo and its
 * not-called marks): the End Session dialog, now in the header's menus loaded after the paint
 * (h57y), imports them too, and Rolldown took them out of the shell into a chunk of their own, a
 * request more before the front queue's keypad. And the announcement of each car queued, which the
 * front queue mounts with its keypad and the queue list with its cards (the car line's kit would have
 * taken it, loaded after the keypad's paint).
 */
const SHELL_TAKES =
  /[\\/]web[\\/]src[\\/]features[\\/]queue[\\/](queue\.queries\.ts|not-called\.tsx|undo\.tsx|queued-toasts\.tsx)$/;
const PHONE_KITS = new Set(['parent-kit', 'sign-in-kit']);
const audienceKit: Group = (id, ctx) => {
  if (GRID.test(id) || SHELL_TAKES.test(id)) return null;
  if (BADGE.test(id)) return 'parent-kit';
  const loaders = withItsLoaders(id);
  if (loaders?.endsWith('-kit')) return loaders;
  const place = audiences.kit(id, ctx);
  if (place === 'sign-in-kit') return 'parent-kit';
  return place !== null && !PHONE_KITS.has(place) && (popoverKit(id, ctx) ?? selectKit(id, ctx))
    ? null
    : place;
};
const audienceOwn: Group = (id, ctx) => {
  if (GRID.test(id) || SHELL_TAKES.test(id)) return 'staff-shell';
  const loaders = withItsLoaders(id);
  return loaders && !loaders.endsWith('-kit') ? loaders : audiences.own(id, ctx);
};

export default defineConfig({
  plugins: [
    routePathsOnly(),
    mantineComponentStyles(),
    mantineStableIds(),
    pureDeclarations(),
    audiences.plugin(`${import.meta.dirname}/.build/chunks.json`),
    react(),
    // Before the service worker's: it names its script in index.html, which the worker precaches.
    routePreload(),
    serviceWorker(),
    keepBundle(),
    compileHints(),
    precompress(),
  ],
  css: { postcss: { plugins: [mantine()] } },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/ws': { target: apiTarget, ws: true },
    },
  },
  // No modulepreload polyfill: browsers without modulepreload (Safari before 17) still load every
  // module, only without the early hint; the bytes stay off every screen's first load.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What the entry imports: beside it, in one chunk.
            { name: 'app', tags: ['$initial'], priority: 30 },
            { name: audienceKit, priority: 20, includeDependenciesRecursively: false },
            { name: popoverKit, priority: 15, includeDependenciesRecursively: false },
            { name: selectKit, priority: 15, includeDependenciesRecursively: false },
            { name: audienceOwn, priority: 10, includeDependenciesRecursively: false },
            { name: live, priority: 5, includeDependenciesRecursively: false },
          ],
        },
      },
    },
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_, deps, { hostId, hostType }) => {
        if (hostType !== 'js') return deps;
        const loaded = loadedWith(hostId);
        return deps.filter((dep) => !loaded.has(dep));
      },
    },
  },
});
