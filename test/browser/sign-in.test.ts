import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contextOptions, tr } from './helpers/i18n';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { AppPage, CustomersPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let app: AppPage;

beforeAll(async () => {
  webRoot = webUiRoot();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  ui = await startUiServer(webRoot);
  context = await clockedContext(browser, contextOptions());
  app = new AppPage(await context.newPage(), ui.url);
  return async () => {
    await context.close();
    await ui.close();
  };
});

describe('signing in to the web UI', () => {
  it('refuses a wrong password, signs in, keeps nothing secret in the page, writes with CSRF, signs out', async () => {
    const { email, password } = await ui.user();
    const page = app.page;
    await app.open('/customers');
    const form = app.signInForm;
    await form.getByLabel(tr('Email')).fill(email);
    await form.getByLabel(tr('Password')).fill('not-the-password');
    await form.getByRole('button', { name: tr('Sign in') }).click();
    // The server's own words (the API speaks English).
    await form.getByRole('alert').getByText('The email or password is not right.').waitFor();
    expect(await form.getByLabel(tr('Password')).inputValue()).toBe('');

    await app.signIn(email, password);
    expect(new URL(page.url()).pathname).toBe('/customers');
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'finops_session', httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toMatch(/finops_[0-9a-f]{64}|finops_session/);
    expect(page.url()).not.toMatch(/key=|token=/);
    await page.getByText('Alex Accountant').waitFor();

    // A write from the UI goes through (it carries the CSRF token).
    const customers = new CustomersPage(app);
    await customers.startNew();
    await customers.fill({ Name: 'Signed In GmbH' });
    await customers.save();
    await customers.row('Signed In GmbH').waitFor();

    // The same cookie without the CSRF header cannot write.
    const forged = await page.evaluate(async () => {
      const r = await fetch('/v1/customers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Forged"}',
      });
      return r.status;
    });
    expect(forged).toBe(403);

    await page.getByRole('button', { name: tr('Sign out') }).click();
    await form.waitFor();
    expect(await context.cookies()).toEqual([]);
    await page.reload();
    await form.waitFor();
  });

  it('returns to the form when the session is signed out from elsewhere', async () => {
    const { email, password } = await ui.user();
    await app.open('/customers');
    await app.signIn(email, password);
    ui.server.db.prepare("UPDATE web_sessions SET revoked_at = '2026-01-01T00:00:00.000Z'").run();
    // The next request (this navigation's, or the change stream's reconnection, whichever comes first) is refused.
    await app
      .nav('Transactions')
      .click({ timeout: 2000 })
      .catch(() => {});
    await app.signInForm.waitFor();
    await app.page.getByText(tr('Your session has ended. Sign in again.')).waitFor();
  });
});
