import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Unit and integration tests (plain Node: real SQLite files, real HTTP on loopback). Browser tests: vitest.browser.config.mts. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    environment: 'node',
    // The test clock first (test/helpers/clock.ts): every test runs on a fixed day, whatever the machine's date.
    setupFiles: ['test/clock-setup.ts', 'test/setup.ts'],
    // Two files run at once on a 2-core machine: a test that compiles the official e-invoice rules or starts several
    // servers took 11 s alone and 37 s beside a loaded neighbour. A test that hangs still ends, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default leaves a core to its own process (cores − 1: one worker on a 2-core
    // machine), but the files mostly wait on servers, child processes and SQLite, and the main process is idle.
    maxWorkers: availableParallelism(),
    // A file named *.slow.test.ts or whose docblock says `@module-tag slow`, or a test given `{ tags: ['slow'] }`,
    // is left out of `npm run test:fast` (--tags-filter=!slow, --exclude); `npm test` runs everything.
    tags: [
      {
        name: 'slow',
        description: 'spawns processes (the CLI, finops serve, the desktop server host, a SIGKILL) or uses the OS keychain',
      },
      {
        name: 'calendar',
        description:
          'depends on the day it runs on: run again on the awkward days by scripts/clock-matrix.sh (docs/decisions/0019)',
      },
    ],
    reporters: process.env.CI_REPORT
      ? ['default', ['json', { outputFile: `reports/${process.env.FINOPS_REPORT_NAME || 'vitest'}.json` }]]
      : ['default'],
  },
});
