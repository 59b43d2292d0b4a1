import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { buildSync } from 'esbuild';
import type { Plugin } from 'vite';
import { withoutDirectiveWarnings } from './vite.web.config.mjs';

/**
 * The desktop app's three builds (out/main, out/preload, out/renderer):
 * - main: the Electron shell (src-main/electron/main.ts) and the server host that runs in a utility process
 *   (src-main/server-host/entry.ts). Dependencies stay external (better-sqlite3 and keytar are native;
 *   fastify plugins read their own files), loaded from node_modules at run time.
 *   Files the main code starts by path rather than imports (the OCR worker thread's script) are copied beside it
 *   by `besideMain`, since `__dirname` is out/main once bundled.
 * - preload: one small sandboxed script exposing `window.finops`; it imports only `electron` (external) and
 *   shared types, so it is self-contained as a sandboxed preload must be.
 * - renderer: the React UI, everything bundled. The platform module is chosen here at build time: the desktop
 *   build swaps `platform/current` (the web implementation) for `platform/desktop`.
 *
 * `electron-vite dev`: the renderer dev server proxies `/v1` to the local server (rewriting Host to it, which the
 * desktop host requires: server/own-host.ts), which the shell starts on
 * FINOPS_DEV_API_PORT in development, so the UI and the API share one origin as in the packaged app.
 */
const devApiPort = Number(process.env.FINOPS_DEV_API_PORT ?? 41999);

/** Scripts the main bundle starts by path (`path.join(__dirname, name)`), emitted into out/main under their names. */
const STARTED_BY_PATH = ['src-main/documents/ocr-worker.cjs'];

/**
 * Workers the main bundle starts by path that are written in TypeScript, bundled on their own (one file, as
 * scripts/build-cli.cjs builds them beside the CLI): the parser sandbox's worker (src-main/sandbox/pool.ts).
 */
const BUNDLED_BY_PATH = [{ entry: 'src-main/sandbox/worker.ts', fileName: 'parser-worker.cjs' }];

function besideMain(): Plugin {
  return {
    name: 'finops-beside-main',
    generateBundle() {
      for (const file of STARTED_BY_PATH) {
        const fileName = file.slice(file.lastIndexOf('/') + 1);
        this.emitFile({ type: 'asset', fileName, source: readFileSync(resolve(__dirname, file)) });
      }
      for (const { entry, fileName } of BUNDLED_BY_PATH) {
        const built = buildSync({
          absWorkingDir: __dirname,
          entryPoints: [entry],
          bundle: true,
          platform: 'node',
          target: 'node22',
          format: 'cjs',
          packages: 'external',
          write: false,
          logLevel: 'warning',
        });
        this.emitFile({ type: 'asset', fileName, source: built.outputFiles[0]!.contents });
      }
    },
  };
}

export default defineConfig({
  main: {
    plugins: [besideMain()],
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          'server-host': resolve(__dirname, 'src-main/server-host/entry.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src-main/electron/preload.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    resolve: {
      alias: [{ find: /^(.*)\/platform\/current$/, replacement: '$1/platform/desktop' }],
    },
    server: {
      proxy: { '/v1': { target: `http://127.0.0.1:${devApiPort}`, changeOrigin: true } },
    },
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      minify: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-renderer/index.html') },
        onwarn: withoutDirectiveWarnings,
      },
    },
  },
});
