import react from '@vitejs/plugin-react';
import mantine from 'postcss-preset-mantine';
import { defineConfig } from 'vite';
import { routePathsOnly } from './route-paths';

/** Where `vite dev` sends API and live-connection calls: the laptop runtime (`pnpm serve`). */
const apiTarget = process.env.CURBSIDE_API ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [routePathsOnly(), react()],
  css: { postcss: { plugins: [mantine()] } },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/ws': { target: apiTarget, ws: true },
    },
  },
  // No modulepreload polyfill: browsers without modulepreload (Safari before 17) still load every
  // module, only without the early hint; the bytes stay off every screen's first load.
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false } },
});
