import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the web build of the UI served by a real headless server, driven in Debian's Chromium through
 * playwright-core (never a downloaded browser). One file at a time: each starts its own server and browser.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: process.env.CI_REPORT ? ['default', ['json', { outputFile: 'reports/browser.json' }]] : ['default'],
  },
});
