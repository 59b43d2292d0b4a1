import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { LANG } from './i18n';

/**
 * Axe is the costliest step of a journey (5–13 s a page on 2 cores), and what it judges — roles, accessible names,
 * contrast — is the same in German as in English and on any day: it runs in the English project on the suite's own
 * day. The German project and the clock matrix's days (scripts/clock-matrix.sh) skip it unless `always` is given
 * (a page's `lang` attributes, which do differ).
 */
const AXE_IN_THIS_RUN = LANG === 'en' && !process.env.FINOPS_CLOCK_MATRIX_DAY;

/** Axe on the page as it is: no serious or critical violation (each listed with up to four of its nodes). */
export async function checkAxe(page: Page, label: string, options: { always?: boolean } = {}): Promise<void> {
  if (!AXE_IN_THIS_RUN && !options.always) return;
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 4)
        .join(' | ')}`,
  );
  expect(summary, `axe on ${label}`).toEqual([]);
}

/** Axe in the light and the dark theme (the system theme follows the browser's colour scheme), back to light after. */
export async function checkAxeBothThemes(page: Page, label: string): Promise<void> {
  if (!AXE_IN_THIS_RUN) return;
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    await checkAxe(page, `${label} (${theme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
