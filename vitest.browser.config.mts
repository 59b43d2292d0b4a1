import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the web build of the UI served by a real headless server, driven in Debian's Chromium through
 * playwright-core (never a downloaded browser). One file at a time: each starts its own server and browser.
 * Every journey runs twice: in English (`en`) and once in German (`de`: the browser, the users and so the screens
 * speak German; test/browser/helpers/i18n.ts). `--project en` runs one of them.
 */
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // The server and the page run on the test clock (test/helpers/clock.ts; the page's through Playwright's clock).
    setupFiles: ['test/clock-setup.ts', 'test/operator-setup.ts'],
    // The web UI built once for the run, not per file (test/browser/global-setup.ts).
    globalSetup: ['test/browser/global-setup.ts'],
    reporters: process.env.CI_REPORT
      ? ['default', ['json', { outputFile: `reports/${process.env.FINOPS_REPORT_NAME || 'browser'}.json` }]]
      : ['default'],
    projects: [
      { extends: true, test: { name: 'en', include: ['test/browser/**/*.test.ts'], env: { FINOPS_UI_LANG: 'en' } } },
      { extends: true, test: { name: 'de', include: ['test/browser/**/*.test.ts'], env: { FINOPS_UI_LANG: 'de' } } },
    ],
  },
});
