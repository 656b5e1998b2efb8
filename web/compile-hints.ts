import type { Plugin, Rolldown } from 'vite';

/**
 * V8's explicit compile hint (Chrome 136 and later): a script that opens with it is compiled
 * whole as it streams in, on a background thread, instead of each function on the main thread
 * the first time it is called.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The entry opens with V8's compile hint (issue 57). Every page runs it before its first paint:
 * React's renderer, the router, TanStack Query and the part of Mantine the first screens draw. With
 * the hint, the functions a load calls were compiled while the entry downloaded, and its
 * evaluation and the first render no longer compile them on the main thread: measured with
 * Lighthouse on the front queue, the entry's evaluation went from 20–29 ms to 13–14 ms (traced,
 * unthrottled), and its total blocking time from a median of 183 ms to 119 (12 runs each, ADR 0026).
 * The lazy chunks stay without it: hinted too, they gained nothing more and each compiled what a
 * screen may never call. Browsers without the hint read a comment.
 *
 * Last in `generateBundle`: the hint must open the file, before what Vite's own `generateBundle`
 * writes at the top of the entry (the lazy imports' preload list, `__vite__mapDeps`). The build
 * has no source maps, whose lines it would shift.
 */
export const compileHints = (): Plugin => ({
  name: 'curbside-compile-hints',
  apply: 'build',
  generateBundle: {
    order: 'post',
    handler(_, bundle: Rolldown.OutputBundle) {
      for (const output of Object.values(bundle))
        if (output.type === 'chunk' && output.isEntry) output.code = `${COMPILE_HINT}\n${output.code}`;
    },
  },
});
