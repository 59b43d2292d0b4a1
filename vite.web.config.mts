import { resolve } from 'node:path';
import { defineConfig, type Rollup } from 'vite';

/**
 * React Query marks its modules "use client" for server-component bundlers; a client-only bundle drops the directive
 * by design, and a warning per module buried every build and test log. Other warnings still show.
 */
export function withoutDirectiveWarnings(warning: Rollup.RollupLog, warn: (w: Rollup.RollupLog) => void): void {
  if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
}

/**
 * The renderer as a plain web app (out/web), served at `/` by the headless server (`finops serve`) next to the
 * API at `/v1`. Same sources as the desktop renderer; `platform/current` stays the web implementation (settings
 * in localStorage). `vite --config vite.web.config.mts` serves it for development, proxying `/v1` to a running
 * `finops serve` (FINOPS_API_URL, default http://127.0.0.1:4100).
 */
export default defineConfig({
  root: resolve(import.meta.dirname, 'src-renderer'),
  base: '/',
  publicDir: false,
  server: {
    proxy: { '/v1': { target: process.env.FINOPS_API_URL ?? 'http://127.0.0.1:4100', changeOrigin: false } },
  },
  build: {
    outDir: resolve(import.meta.dirname, 'out/web'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: { onwarn: withoutDirectiveWarnings },
  },
});
