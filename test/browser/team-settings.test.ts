/**
 * Team settings in the web build, as the team's owner: the team's address and VAT number (checked against its
 * country's format before sending), a manual bank account made with its opening balance typed in the user's number
 * format, renamed, archived and deleted; the mail server for invoices set (the password never shown again) and a
 * test message sent through it to a real SMTP sink, then refused on a port where nothing listens; and an exchange rate
 * file imported, its bad lines said one by one.
 */
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { appSmtpRoutes } from '../../src-shared/contract/app-smtp';
import { bankAccountRoutes } from '../../src-shared/contract/bank-accounts';
import { teamRoutes } from '../../src-shared/contract/teams';
import { closedPort, startTestSmtp } from '../helpers/smtp';
import { checkAxeBothThemes } from './helpers/axe';
import { formatted, literally, startsWith, tk, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';

const journey = journeySuite();

describe('team settings', () => {
  it('keeps the team’s details, a manual account, the mail server and exchange rates', { timeout: 120_000 }, async () => {
    const { ui, page, app } = journey;
    const api = createApiClient({ baseUrl: ui.url, token: () => ui.key() });
    const { email, password } = await ui.user();
    await app.open('/team-settings');
    await app.signIn(email, password);

    // The team: a VAT number that is not German is refused at the field before anything is sent.
    const team = page.getByRole('form', { name: tk('team:team.title') });
    await team.getByLabel(tr('Country'), { exact: true }).selectOption('DE');
    await team.getByLabel(tr('VAT number'), { exact: true }).fill('DE12345');
    await team.getByLabel(tr('City'), { exact: true }).fill('Berlin');
    await team.getByRole('button', { name: tr('Save team') }).click();
    await team.getByText(/DE123456789/).waitFor();
    await team.getByLabel(tr('VAT number'), { exact: true }).fill('DE 123 456 789');
    await team.getByRole('button', { name: tr('Save team') }).click();
    await app.toast('Team saved').waitFor();
    const saved = (await api.call(teamRoutes.list)).data[0]!;
    expect(saved).toMatchObject({ city: 'Berlin', countryCode: 'DE', vatNumber: 'DE 123 456 789' });

    // A manual account with its opening balance, typed as the user writes numbers.
    await page.getByRole('tab', { name: tr('Bank accounts') }).click();
    await page.getByRole('button', { name: tr('New account') }).click();
    const form = page.getByRole('dialog', { name: tr('New bank account') });
    await form.getByLabel(tr('Name'), { exact: true }).fill('Petty cash');
    await form.getByLabel(tr('Opening balance'), { exact: true }).fill(formatted(1250.5, 2));
    await form.getByRole('button', { name: startsWith('Create account') }).click();
    await app.toast('Account {{name}} created', { name: 'Petty cash' }).waitFor();
    const row = page.locator('tr', { has: page.getByText('Petty cash', { exact: true }) });
    await row.getByText(/1[.,]250[.,]50/).waitFor();
    await row.getByRole('button', { name: startsWith('Edit') }).click();
    const edit = page.getByRole('dialog', { name: tr('Edit {{name}}', { name: 'Petty cash' }) });
    await edit.getByLabel(tr('Name'), { exact: true }).fill('Cash box');
    await edit.getByRole('button', { name: startsWith('Save account') }).click();
    await app.toast('Account {{name}} saved', { name: 'Cash box' }).waitFor();
    const box = page.locator('tr', { has: page.getByText('Cash box', { exact: true }) });
    await box.getByRole('button', { name: startsWith('Archive') }).click();
    await box.getByText(tr('Archived')).waitFor();
    // Its opening balance is a transaction: deleting asks whether to take it along.
    await box.getByRole('button', { name: new RegExp(`^${tk('common:delete')}`) }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: tr('Delete account') })
      .click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: tr('Delete with its transactions') })
      .click();
    await box.waitFor({ state: 'detached' });
    expect((await api.call(bankAccountRoutes.list, { query: {} })).data.map((a) => a.name)).not.toContain('Cash box');

    // The mail server: set, the password written once and never shown.
    await page.getByRole('tab', { name: tr('Mail server') }).click();
    const mail = page.getByRole('form', { name: tr('Mail server for invoices') });
    await mail.getByLabel(tr('Server'), { exact: true }).fill('smtp.example.com');
    await mail.getByLabel(tr('User name'), { exact: true }).fill('billing@example.com');
    await mail.getByLabel(tr('Password'), { exact: true }).fill('a-long-secret');
    await mail.getByLabel(tr('Sender address'), { exact: true }).fill('billing@example.com');
    await mail.getByRole('button', { name: tr('Save mail server') }).click();
    await app.toast('Mail server saved; waiting e-mails go out through it').waitFor();
    await mail.getByText(tr('A password is stored; leave this empty to keep it.')).waitFor();
    expect(await mail.getByLabel(tr('Password'), { exact: true }).inputValue()).toBe('');
    expect((await api.call(appSmtpRoutes.get)).data).toMatchObject({ host: 'smtp.example.com', port: 587, passwordSet: true });

    // Exchange rates: a bad file refused line by line, then a good one.
    await page.getByRole('tab', { name: tr('Exchange rates') }).click();
    const file = page.getByLabel(tr('Rate file'), { exact: true });
    await file.setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('date,currency,rate\n2026-02-30,EUR,0.9'),
    });
    await page.getByText('line 2: ', { exact: false }).waitFor();
    const ecb = 'Date,USD,JPY,\n2026-03-03,1.0500,160.10,\n2026-03-02,1.0400,159.00,\n';
    await file.setInputFiles({ name: 'eurofxref.csv', mimeType: 'text/csv', buffer: Buffer.from(ecb) });
    await page
      .getByRole('status')
      .filter({ hasText: tr('Every transaction has a rate.') })
      .waitFor();
    await page
      .getByRole('table', { name: tr('Exchange rates') })
      .getByRole('cell', { name: 'JPY' })
      .waitFor();
    // 401: the session check before sign-in; 409 and 422: the refusals the journey asked for.
    expect(app.errors.filter((e) => !/status of (401|409|422)/.test(e))).toEqual([]);
  });

  it('sends a test message through the saved mail server, and says why one did not go', { timeout: 120_000 }, async () => {
    const { ui, page, app } = journey;
    const api = createApiClient({ baseUrl: ui.url, token: () => ui.key() });
    const smtp = await startTestSmtp();
    try {
      const { email, password } = await ui.user();
      await app.open('/team-settings');
      await app.signIn(email, password);
      await page.getByRole('tab', { name: tr('Mail server') }).click();
      const mail = page.getByRole('form', { name: tr('Mail server for invoices') });
      await mail.getByLabel(tr('Server'), { exact: true }).fill('127.0.0.1');
      await mail.getByLabel(tr('Security'), { exact: true }).selectOption(tk('team:mail.securities.none'));
      await mail.getByLabel(tr('Port'), { exact: true }).fill(String(smtp.port));
      await mail.getByLabel(tr('Sender address'), { exact: true }).fill('billing@example.com');
      await mail.getByRole('button', { name: tr('Save mail server') }).click();
      await app.toast('Mail server saved; waiting e-mails go out through it').waitFor();

      // To the person's own address unless another is given; the sink has it once the server says so.
      const test = page.getByRole('form', { name: tk('team:mail.test.title') });
      expect(await test.getByLabel(tr('Send to')).inputValue()).toBe(email);
      await test.getByRole('button', { name: tk('team:mail.test.send') }).click();
      await test
        .getByRole('status')
        .getByText(literally(tk('team:mail.test.sent', { to: email })))
        .waitFor();
      expect(smtp.received.map((m) => m.to)).toEqual([[email]]);
      expect(smtp.received[0]!.subject).toMatch(/^Test message from /);

      // Nothing listens on the port now: the reason, in plain words, with the network's own.
      const port = await closedPort();
      await api.call(appSmtpRoutes.put, {
        body: { host: '127.0.0.1', port, security: 'none', fromAddress: 'billing@example.com' },
      });
      await test.getByLabel(tr('Send to')).fill('ap@example.com');
      await test.getByRole('button', { name: tk('team:mail.test.send') }).click();
      const alert = test.getByRole('alert');
      await alert.getByText(tk('team:mail.test.failed')).waitFor();
      expect(await alert.innerText()).toContain(`Nothing at 127.0.0.1:${port} takes connections`);
      expect(smtp.received).toHaveLength(1);
      await checkAxeBothThemes(page, 'mail server test message refused');
      // 401: the session check before sign-in; 502: the refusal the journey asked for.
      expect(app.errors.filter((e) => !/status of (401|502)/.test(e))).toEqual([]);
    } finally {
      await smtp.close();
    }
  });
});
