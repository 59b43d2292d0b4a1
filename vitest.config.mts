import { defineConfig } from 'vitest/config';

/** Unit and integration tests (plain Node: real SQLite files, real HTTP on loopback). Browser tests: vitest.browser.config.mts. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A file named *.slow.test.ts or whose docblock says `@module-tag slow`, or a test given `{ tags: ['slow'] }`,
    // is left out of `npm run test:fast` (--tags-filter=!slow, --exclude); `npm test` runs everything.
    tags: [
      {
        name: 'slow',
        description: 'spawns processes (the CLI, finops serve, the desktop server host, a SIGKILL) or uses the OS keychain',
      },
    ],
    reporters: process.env.CI_REPORT ? ['default', ['json', { outputFile: 'reports/vitest.json' }]] : ['default'],
  },
});
