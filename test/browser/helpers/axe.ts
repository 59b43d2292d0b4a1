import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Axe on the page as it is: no serious or critical violation (each listed with up to four of its nodes). */
export async function checkAxe(page: Page, label: string): Promise<void> {
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
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    await checkAxe(page, `${label} (${theme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
