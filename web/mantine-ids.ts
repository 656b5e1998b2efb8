import type { Plugin } from 'vite';

const USE_ID = /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;
const SWAP = 'setUuid(randomId());';

/**
 * Mantine's `useId` (every input's label, every Popover, Menu and Tooltip) starts from React's own
 * id and, in a layout effect, swaps it for a random one: a state update in every such component's
 * first commit, in React's synchronous lane. That update drew the component again in the same task
 * and, being synchronous, made React run the whole commit's passive effects there first: the front
 * queue's keypad, its header menus and its lists each drew twice in one task (issue 57,
 * `lantern-graph.ts --tasks --react`: "commit of 216", its effects, then "commit of 11"). React's id
 * is unique within the page and stable, so in the web build the swap is made only where React gave
 * none (a React before 18, as Mantine's code intends it). The build fails should Mantine's code change.
 */
export const mantineStableIds = (): Plugin => ({
  name: 'curbside-mantine-stable-ids',
  apply: 'build',
  transform(code, id) {
    if (!USE_ID.test(id)) return null;
    if (!code.includes(SWAP)) throw new Error(`${id}: Mantine's useId changed; see web/mantine-ids.ts`);
    return { code: code.replace(SWAP, `if (!reactId) ${SWAP}`), map: null };
  },
});
