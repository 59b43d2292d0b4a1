import { defineConfig } from 'vitest/config';

/** Unit and integration tests (plain Node: real SQLite files, real HTTP on loopback). Browser tests: vitest.browser.config.mts. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: process.env.CI_REPORT ? ['default', ['json', { outputFile: 'reports/vitest.json' }]] : ['default'],
  },
});
