import type { Plugin } from 'vite';

/**
 * Every styled Mantine component imports its class names from `<Name>.module.css.mjs`, and
 * Mantine ships each component's rules as `@mantine/core/styles/<Name>.layer.css` (the same
 * names; one of them, `InlineInput` — the label beside a Radio, Checkbox or Switch — lives under
 * `esm/utils`, not `esm/components`). In the build, that module also imports that stylesheet: a component's CSS lands in
 * the chunk that uses the component, so a page's render-blocking CSS holds only what the entry
 * draws, and each screen brings its components' rules with its own code (ADR 0026). The global
 * files (reset, variables, helpers) are imported by `src/main.tsx`.
 *
 * The `.layer.css` files put Mantine in `@layer mantine`, under every unlayered rule: the app's
 * own CSS overrides Mantine's whatever order the chunks' stylesheets arrive in. Between Mantine's
 * own files the order follows the imports (a component imports the components it is built from
 * before its class names), and a lazy chunk's stylesheets are inserted after those it depends on.
 *
 * `vite dev` pre-bundles Mantine into one module, with no per-component module to hook:
 * there the entry imports Mantine's whole stylesheet instead.
 */
const CLASS_NAMES =
  /[\\/]@mantine[\\/]core[\\/]esm[\\/](?:components|utils)[\\/](?:[^?]*[\\/])?(\w+)\.module\.css\.mjs$/;
const ENTRY = /[\\/]web[\\/]src[\\/]main\.tsx$/;

export const mantineComponentStyles = (): Plugin => {
  let serving = false;
  return {
    name: 'curbside-mantine-component-styles',
    enforce: 'pre',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    transform(code, id) {
      if (serving) {
        return ENTRY.test(id)
          ? { code: `import '@mantine/core/styles.layer.css';\n${code}`, map: null }
          : null;
      }
      const name = CLASS_NAMES.exec(id)?.[1];
      return name ? { code: `${code}\nimport '@mantine/core/styles/${name}.layer.css';\n`, map: null } : null;
    },
  };
};
