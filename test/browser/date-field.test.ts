/**
 * Days typed the way the user's Settings say, not the browser's: with a dd.MM.yyyy date format (in either language
 * run), "15.3.2026" typed into a manual transaction reads "15.03.2026" once left and is stored as 2026-03-15, and
 * "31.04.2026" is refused with the field's own message, nothing sent.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { updateMe } from '../../src-main/store/teams/team-api';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { findUserByEmail } from '../../src-main/store/users/users';
import { createApiClient } from '../../src-shared/api-client';
import { appTransactionRoutes } from '../../src-shared/contract/app-transactions';
import { formatted, startsWith, tk, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';

const journey = journeySuite({}, (ui) => ui.seedDemo());

/** Signed in on the transactions as a user whose date format is dd.MM.yyyy whatever the run's language. */
async function signedInWithGermanDays(): Promise<Page> {
  const { ui, app, page } = journey;
  const { email, password } = await ui.user();
  const user = findUserByEmail(ui.server.db, email);
  if (!user) throw new Error('no test user');
  // so the English run proves that the setting, not the locale, rules
  updateMe(
    ui.server.db,
    { teamId: ensureTeam(ui.server.db, 'Browser Test Co').id, userId: user.id },
    { dateFormat: 'dd.MM.yyyy' },
  );
  await app.open('/transactions');
  await app.signIn(email, password);
  await page.getByRole('grid', { name: tr('Transactions') }).waitFor();
  return page;
}

const parkingMeters = () =>
  createApiClient({ baseUrl: journey.ui.url, token: () => journey.ui.key() }).call(appTransactionRoutes.list, {
    query: { q: 'Parking meter', pageSize: 10 },
  });

describe('a day typed in the user’s date format', () => {
  it('reads 15.3.2026 as 15.03.2026 and stores 2026-03-15; refuses 31.04.2026', async () => {
    const page = await signedInWithGermanDays();
    const { app } = journey;
    await page.getByRole('button', { name: tk('transactions:add.button') }).click();
    const form = page.getByRole('dialog', { name: tk('transactions:add.title') });
    const day = form.getByLabel(tk('transactions:add.date'));
    expect(await day.getAttribute('placeholder')).toBe(
      tk('common:dateField.letters.day') + '.' + tk('common:dateField.letters.month') + '.' + tk('common:dateField.letters.year'),
    );
    await form.getByLabel(tr('What it was')).fill('Parking meter');
    await form.getByLabel(tk('transactions:add.amount')).fill(formatted(12.5, 2));

    // Not a date: said under the field once left, and the form sends nothing.
    await day.fill('31.04.2026');
    await day.blur();
    const pattern = (await day.getAttribute('placeholder')) ?? '';
    const refused = tk('common:dateField.invalid', { pattern });
    await form.getByRole('alert').filter({ hasText: refused }).waitFor();
    expect(await day.getAttribute('aria-invalid')).toBe('true');
    expect(await day.inputValue()).toBe('31.04.2026');
    await form.getByRole('button', { name: startsWith('Add transaction') }).click();
    await form.getByRole('alert').filter({ hasText: refused }).waitFor();
    expect((await parkingMeters()).data).toHaveLength(0);

    // Typed short, written out in full once left, stored as an ISO day.
    await day.fill('');
    await day.pressSequentially('15.3.2026', { delay: 20 });
    await day.blur();
    expect(await day.inputValue()).toBe('15.03.2026');
    expect(await form.getByRole('alert').count()).toBe(0);
    await form.getByRole('button', { name: startsWith('Add transaction') }).click();
    await app.toast('{{name}} added', { name: 'Parking meter' }).waitFor();
    expect((await parkingMeters()).data[0]).toMatchObject({ date: '2026-03-15', amount: -12.5, manual: true });
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('filters from a day typed short, and refuses an end before the start', async () => {
    const page = await signedInWithGermanDays();
    const bar = page.getByRole('search', { name: tk('transactions:filters.label') });
    const from = bar.getByLabel(tk('transactions:filters.from'), { exact: true });
    await from.fill('1.3.26');
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe('2026-03-01');
    await from.blur();
    expect(await from.inputValue()).toBe('01.03.2026');

    const to = bar.getByLabel(tk('transactions:filters.to'), { exact: true });
    await to.fill('28022026');
    await to.blur();
    await bar
      .getByRole('alert')
      .filter({ hasText: tk('common:dateField.beforeMin', { min: '01.03.2026' }) })
      .waitFor();
    expect(await to.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).searchParams.get('to')).toBeNull();
  });
});
