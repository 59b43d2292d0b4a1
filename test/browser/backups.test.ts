/**
 * Settings → Backups in the web build, as the owner of the only team on the server: the folder and no backup yet;
 * "Back up now" makes an archive that the list and the last-backup line then show, in the user's date and size
 * formats; the schedule refuses a bad interval at its field and keeps a good one over a reload; a restore asks for
 * "restore" to be typed before its button enables, replaces the data and names the safety backup it made first. On a
 * server of several teams the panel says who backs up instead.
 */
import { describe, expect, it } from 'vitest';
import { createFormatter } from '../../src-renderer/lib/format';
import { createApiClient } from '../../src-shared/api-client';
import { appBackupRoutes } from '../../src-shared/contract/app-backups';
import { customerRoutes } from '../../src-shared/contract/customers';
import { checkAxeBothThemes } from './helpers/axe';
import { LOCALE, tk, USER_FORMATS } from './helpers/i18n';
import { journeySuite } from './helpers/suite';

const journey = journeySuite();

/** How the screens write dates and sizes for the run's test users. */
const formats = createFormatter({
  locale: LOCALE,
  dateFormat: USER_FORMATS.dateFormat ?? 'yyyy-MM-dd',
  timezone: USER_FORMATS.timezone ?? 'UTC',
  timeFormat: USER_FORMATS.timeFormat ?? 24,
  numberFormat: 'locale',
});

describe('backups in Settings', () => {
  it('backs up now, keeps a schedule, and restores an archive after a typed confirmation', { timeout: 180_000 }, async () => {
    const { ui, page, app } = journey;
    const key = ui.key();
    const api = createApiClient({ baseUrl: ui.url, token: () => key });
    const toast = (text: string) => page.locator('.toast', { hasText: text });
    await api.call(customerRoutes.create, { body: { name: 'Kept Ltd' } });
    const { email, password } = await ui.user();
    await app.open('/settings');
    await app.signIn(email, password);

    const panel = page.getByRole('region', { name: tk('settings:backups.title') });
    await expect.poll(() => panel.getByTestId('backup-folder').innerText()).toBe(`${ui.dataDir}/backups`);
    await panel.getByText(tk('settings:backups.folderHint')).waitFor();
    expect(await panel.getByTestId('last-backup').innerText()).toBe(tk('settings:backups.none'));
    await panel.getByText(tk('settings:backups.noArchives')).waitFor();

    // Back up now: the toast, the list and the last-backup line.
    const now = panel.getByRole('button', { name: tk('settings:backups.now') });
    await now.click();
    await expect.poll(() => panel.getByTestId('last-backup').innerText()).not.toBe(tk('settings:backups.none'));
    const made = (await api.call(appBackupRoutes.status)).lastBackup;
    expect(made).toMatchObject({ trigger: 'manual', state: 'done' });
    const name = made?.fileName ?? '';
    await toast(tk('settings:backups.made', { name, size: formats.bytes(made?.size) })).waitFor();
    const archives = panel.getByRole('table', { name: tk('settings:backups.archives') });
    const row = archives.locator('tr', { hasText: name });
    await row.waitFor();
    const archive = (await api.call(appBackupRoutes.status)).backups.find((b) => b.name === name);
    expect(await row.innerText()).toContain(formats.dateTime(archive?.createdAt));
    expect(await row.innerText()).toContain(formats.bytes(archive?.size));
    expect(await panel.getByTestId('last-backup').innerText()).toBe(
      tk('settings:backups.lastLine', {
        when: formats.dateTime(made?.finishedAt),
        size: formats.bytes(made?.size),
        name,
      }),
    );
    await checkAxeBothThemes(page, 'settings, backups');

    // The schedule: 0 hours is refused at its field (the server's words), 6 is kept over a reload.
    const schedule = panel.getByRole('form', { name: tk('settings:backups.schedule') });
    const interval = schedule.getByLabel(tk('settings:backups.interval'), { exact: true });
    expect(await interval.inputValue()).toBe('24');
    await interval.fill('0');
    await schedule.getByRole('button', { name: tk('settings:backups.save') }).click();
    await schedule.getByRole('alert').filter({ hasText: 'At least 1 hour' }).waitFor();
    expect(await interval.getAttribute('aria-invalid')).toBe('true');
    await interval.fill('6');
    expect(await interval.getAttribute('aria-invalid')).toBe('false');
    await schedule.getByRole('button', { name: tk('settings:backups.save') }).click();
    await toast(tk('settings:backups.saved')).waitFor();
    expect((await api.call(appBackupRoutes.status)).settings.intervalHours).toBe(6);
    await page.reload();
    await expect.poll(() => interval.inputValue()).toBe('6');

    // A customer made after the backup is gone once it is restored.
    await api.call(customerRoutes.create, { body: { name: 'Later GmbH' } });
    await row
      .getByRole('button', { name: tk('settings:backups.restoreOne', { when: formats.dateTime(archive?.createdAt) }) })
      .click();
    const dialog = page.getByRole('dialog', { name: tk('settings:backups.restoreTitle') });
    await dialog.getByText(tk('settings:backups.restoreSafety')).waitFor();
    const word = dialog.getByLabel(tk('settings:backups.restoreType', { word: 'restore' }));
    await expect.poll(() => word.evaluate((el) => el === document.activeElement)).toBe(true);
    const confirm = dialog.getByRole('button', { name: tk('settings:backups.restoreConfirm') });
    expect(await confirm.isDisabled()).toBe(true);
    await word.fill('restor');
    expect(await confirm.isDisabled()).toBe(true);
    await checkAxeBothThemes(page, 'settings, restore dialog');
    await word.fill('restore');
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    const result = panel.getByRole('status').filter({ hasText: name });
    await result.waitFor();
    const after = await api.call(appBackupRoutes.status);
    const safety = after.backups.find((b) => b.trigger === 'restore')?.name ?? 'no safety backup';
    expect(await result.innerText()).toBe(tk('settings:backups.restored', { name, safety }));
    await panel
      .getByRole('table', { name: tk('settings:backups.archives') })
      .locator('tr', { hasText: safety })
      .waitFor();
    // The data is the backup's: the later customer is gone, and so is the schedule saved after the backup.
    const customers = (await api.call(customerRoutes.list, { query: {} })).data.map((c) => c.name);
    expect(customers).toEqual(['Kept Ltd']);
    await expect.poll(() => interval.inputValue()).toBe('24');
    // 401: the session check before sign-in; 422: the refused interval the journey asked for; 503: what the restore
    // gate answers the screens' own polls (the sync status) while the restore runs (they try again after it). Joined, so
    // a failure names the errors.
    expect(app.errors.filter((e) => !/status of (401|422|503)/.test(e)).join(' ## ')).toBe('');
  });

  it('says who backs up on a server of several teams, instead of failing', { timeout: 120_000 }, async () => {
    const { ui, page, app } = journey;
    ui.key('Another Team');
    const { email, password } = await ui.user();
    await app.open('/settings');
    await app.signIn(email, password);
    const panel = page.getByRole('region', { name: tk('settings:backups.title') });
    await panel.getByText(tk('settings:backups.refused')).waitFor();
    expect(await panel.getByRole('alert').count()).toBe(0);
    expect(await panel.getByRole('button', { name: tk('settings:backups.now') }).count()).toBe(0);
  });
});
