import { createHash } from 'node:crypto';
import type { Plugin, Rolldown } from 'vite';

/**
 * The screens a visitor opens first, by path, with the modules the router loads lazily for
 * them (the audience's layouts and the page): ADR 0026. A module named here that no chunk of
 * the build holds fails the build.
 */
export interface FirstScreen {
  path: RegExp;
  modules: readonly string[];
  /**
   * The reads its loaders start first (GET, as `request` sends them; `?` at the end: with the
   * page's own query string): `always`, and `parent`'s once `/api/me` says a parent is signed
   * in (and may read: no one-time password), `staff`'s once it says anyone else is, `school`'s
   * once it says a member of a school's staff is (`{schoolId}` and `{districtId}` put in from its
   * answer; a read whose field is null is not made); `link`,
   * with the school link's token of the
   * page's `?t=` as `Authorization: Bearer`, as the screens opened from a link read.
   */
  reads?: {
    always?: readonly string[];
    parent?: readonly string[];
    staff?: readonly string[];
    school?: readonly string[];
    link?: readonly string[];
  };
}

const ME = '/api/me';

export const FIRST_SCREENS: readonly FirstScreen[] = [
  { path: /^\/(login)?$/, modules: ['src/features/home/home.page', 'src/features/auth/login.page'] },
  {
    path: /^\/parent-login$/,
    modules: ['src/features/parent/i18n', 'src/features/parent/parent-login.page'],
    reads: { always: [ME, '/api/health'] },
  },
  { path: /^\/parent$/, modules: ['src/features/parent/i18n', 'src/features/parent/parent.page'] },
  {
    path: /^\/parent\/invite$/,
    modules: ['src/features/parent/i18n', 'src/features/parent/invite-link.page'],
    reads: { always: [ME, '/api/parent-invites/lookup?'] },
  },
  { path: /^\/invite\/[^/]+$/, modules: ['src/features/parent/i18n', 'src/features/parent/invite.page'] },
  {
    path: /^\/parent-dashboard$/,
    modules: [
      'src/features/parent/i18n',
      'src/features/live/live.layout',
      'src/features/parent/parent-dashboard.page',
    ],
    reads: {
      always: [ME],
      // The family's changes are read once the page has been painted (ChangeWayHome, h57k).
      parent: ['/api/parent/students/status', '/api/parent/students', '/api/parent/ways-home'],
    },
  },
  {
    path: /^\/bus-driver$/,
    modules: ['src/features/buses/bus-driver.page'],
    // The buses to choose from and the school's phone (driverQueries), with the page's link.
    reads: { link: ['/api/buses', '/api/buses/contact'] },
  },
  {
    path: /^\/front-queue$/,
    modules: [
      'src/features/live/live.layout',
      'src/features/shell/shell.layout',
      'src/features/front-queue/front-queue.page',
    ],
    // And the running session the shell waits for (h57l): a session started while the answer
    // travelled is read again when the screen's live connection opens (`readAgainOnFirstOpen`).
    // With who is signed in, not after its answer (h57w): it is read with the same cookie, and the
    // shell draws nothing until both are in; a round trip less before the keypad's paint. (A visitor
    // who is not staff gets its refusal, unused: the shell asks it of staff only.)
    // With it what the shell's first draw shows (h57q): the header's school and district and the
    // banner's alerts, as `shellLoader` asks them; asked by the loader they left only once the
    // entry had run, a round trip after it before the keypad's paint. Read again on the opening too.
    reads: {
      always: [ME, '/api/sessions/active'],
      school: ['/api/schools/{schoolId}', '/api/districts/{districtId}', '/api/alerts'],
    },
  },
];

const EXTENSIONS = ['.tsx', '.ts'];

type Reads = NonNullable<FirstScreen['reads']>;

/**
 * What the early script does in the page (serialized into it, so plain browser code): for the
 * screen `location` names, it hints its files, and starts its reads, each answer kept in
 * `window.curbsideEarly` for the app's first call of that URL (`web/src/lib/http.ts`). A URL
 * the app asked for before the script got to it is not read again.
 */
function early(screens: Array<[string, string[], Reads]>) {
  const screen = screens.find(([pattern]) => new RegExp(pattern).test(location.pathname));
  if (!screen) return;
  const [, files, reads] = screen;
  const answers: Record<string, Promise<Response> | null> = {};
  (window as { curbsideEarly?: typeof answers }).curbsideEarly ??= answers;
  const kept = (window as { curbsideEarly?: typeof answers }).curbsideEarly as typeof answers;
  const read = (url: string, authorization?: string) => {
    const full = url.endsWith('?') ? url.slice(0, -1) + location.search : url;
    const key = authorization ? `${full} ${authorization}` : full;
    if (key in kept) return;
    const answer = fetch(full, {
      credentials: 'include',
      ...(authorization ? { headers: { authorization } } : {}),
    });
    // Offline (a tablet reloaded in a dead spot) the read fails: the app's own request then asks
    // again (`takeEarlyRead`), and a failure nobody waits for is no page error.
    answer.catch(() => {});
    kept[key] = answer;
  };
  for (const url of reads.always ?? []) read(url);
  // A school link's token as the page reads it (linkToken in features/buses/bus-socket.ts).
  const token = new URLSearchParams(location.search).get('t');
  if (token && /^[A-Za-z0-9_-]{32}$/.test(token))
    for (const url of reads.link ?? []) read(url, `Bearer ${token}`);
  // The hints after the reads: on HTTP/1.1's six connections a read asked for first goes first.
  for (const file of files) {
    const link = document.createElement('link');
    const css = file.endsWith('.css');
    link.rel = css ? 'preload' : 'modulepreload';
    if (css) link.as = 'style';
    link.crossOrigin = '';
    link.href = `/assets/${file}`;
    document.head.append(link);
  }
  const me = kept['/api/me'];
  if (!me || !(reads.parent || reads.staff || reads.school)) return;
  type User = {
    role?: string;
    mustChangePassword?: boolean;
    schoolId?: number | null;
    districtId?: number | null;
  };
  me.then((response) => (response.ok ? response.clone().json() : null))
    .then((user: User | null) => {
      if (!user?.role || user.mustChangePassword) return;
      if (user.role !== 'parent') {
        for (const url of reads.staff ?? []) read(url);
        if (typeof user.schoolId !== 'number') return;
        const fields: Record<string, unknown> = { schoolId: user.schoolId, districtId: user.districtId };
        for (const url of reads.school ?? []) {
          const named = /\{(\w+)\}/.exec(url)?.[1];
          if (named === undefined) read(url);
          else if (typeof fields[named] === 'number') read(url.replace(`{${named}}`, String(fields[named])));
        }
        return;
      }
      for (const url of reads.parent ?? []) read(url);
    })
    .catch(() => {});
}

/**
 * `assets/route-preload-<hash>.js`, loaded `async` by index.html before the entry: it asks for
 * the opened screen's chunks and their stylesheets (`modulepreload`, `preload`) while the entry
 * downloads, instead of once it has run and the router has matched (on HTTP/1.1 at a phone's
 * round trips, a chain of requests shorter). It only hints: a screen it does not know, or a
 * browser that ignores it, loads as before. The service worker precaches it (`sw.js`).
 */
export const routePreload = (): Plugin => ({
  name: 'curbside-route-preload',
  apply: 'build',
  // After Vite's HTML and CSS plugins: index.html is in the bundle, lazy CSS-only chunks are out.
  enforce: 'post',
  generateBundle(_, bundle) {
    const chunks = Object.values(bundle).filter(
      (output): output is Rolldown.OutputChunk => output.type === 'chunk',
    );
    const entry = chunks.find((chunk) => chunk.isEntry);
    if (!entry) throw new Error('route-preload: the build has no entry chunk');
    const closure = (fileName: string, found = new Set<string>()) => {
      const chunk = bundle[fileName];
      if (found.has(fileName) || chunk?.type !== 'chunk') return found;
      found.add(fileName);
      for (const imported of chunk.imports) closure(imported, found);
      return found;
    };
    const loadedFirst = closure(entry.fileName);
    const screens = FIRST_SCREENS.map(({ path, modules, reads = {} }) => {
      const files = new Set<string>();
      for (const module of modules) {
        const ids = EXTENSIONS.map((extension) => `/${module}${extension}`);
        const holder = chunks.find((chunk) =>
          chunk.moduleIds.some((id) => ids.some((end) => id.endsWith(end))),
        );
        if (!holder) throw new Error(`route-preload: no chunk holds ${module} (web/route-preload.ts)`);
        for (const fileName of closure(holder.fileName)) {
          if (loadedFirst.has(fileName)) continue;
          files.add(fileName);
          const chunk = bundle[fileName] as Rolldown.OutputChunk;
          for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        }
      }
      return [path.source, [...files].sort(), reads] as const;
    });
    // The function as the config's compiler printed it, its lines joined (every statement ends in
    // `;` or `}`), the files without their folder (the script puts `/assets/` back).
    const code = early.toString().replace(/\s*\n\s*/g, '');
    const listed = screens.map(([path, files, reads]) => [
      path,
      files.map((file) => file.replace(/^assets\//, '')),
      reads,
    ]);
    const source = `(${code})(${JSON.stringify(listed)});\n`;
    const fileName = `assets/route-preload-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
    this.emitFile({ type: 'asset', fileName, source });
    const index = bundle['index.html'];
    if (index?.type !== 'asset' || typeof index.source !== 'string') {
      throw new Error('route-preload: the build has no index.html');
    }
    const tag = `<script async src="/${fileName}"></script>`;
    const moduleScript = /\n(\s*)<script type="module"/;
    if (!moduleScript.test(index.source)) throw new Error('route-preload: index.html has no entry script');
    index.source = index.source.replace(moduleScript, (found, indent: string) => `\n${indent}${tag}${found}`);
  },
});
