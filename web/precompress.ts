import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { PRECOMPRESSED as Precompressed } from '@curbside/api';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * The files CloudFront compresses (text; from 1,000 bytes: smaller ones gain nothing over the
 * headers), compressed once at build time as Brotli and gzip (level 9) copies beside
 * each (`x.js.br`, `x.js.gz`: `PRECOMPRESSED` in `@curbside/api`), so the laptop
 * runtime serves what a phone gets from CloudFront (ADR 0026). A copy that is not smaller is not kept.
 */
const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.webmanifest',
  '.map',
]);
const MIN_BYTES = 1000;
/** Brotli's 10, not its 11: 2% larger for a quarter of the time (2 s against 8.4 s of CPU for the whole app). */
const BROTLI_QUALITY = 10;

/** `@curbside/api`'s definition, read as route-paths.ts reads the route table (the config's loader leaves workspace packages to Node). */
const SITE_CACHING = fileURLToPath(new URL('../packages/api/src/site-caching.ts', import.meta.url));
const precompressed = async () => {
  const { tsImport } = await import('tsx/esm/api');
  return ((await tsImport(SITE_CACHING, import.meta.url)) as { PRECOMPRESSED: typeof Precompressed })
    .PRECOMPRESSED;
};

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(join(dir, entry.name)) : Promise.resolve([join(dir, entry.name)]),
    ),
  );
  return nested.flat();
};

const compressFile = async (file: string, copies: typeof Precompressed) => {
  const source = await readFile(file);
  const compressed = {
    br: brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzip: gzipped(source, { level: constants.Z_BEST_COMPRESSION }),
  };
  await Promise.all(
    copies.map(async ({ encoding, suffix }) => {
      const bytes = await compressed[encoding];
      if (bytes.length < source.length) await writeFile(`${file}${suffix}`, bytes);
    }),
  );
};

export const precompress = (): Plugin => {
  let outDir = '';
  return {
    name: 'curbside-precompress',
    apply: 'build',
    configResolved(config: ResolvedConfig) {
      outDir = join(config.root, config.build.outDir);
    },
    // After every file is written, the public ones included.
    async closeBundle() {
      const files = await filesUnder(outDir);
      const wanted = await Promise.all(
        files.map(async (file) =>
          COMPRESSIBLE.has(extname(file)) && (await stat(file)).size >= MIN_BYTES ? file : undefined,
        ),
      );
      const copies = await precompressed();
      await Promise.all(wanted.flatMap((file) => (file ? [compressFile(file, copies)] : [])));
    },
  };
};
