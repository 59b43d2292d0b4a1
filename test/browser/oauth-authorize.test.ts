/**
 * The authorization code flow as a person does it: Debian's Chromium (never a downloaded browser) opens the
 * authorize page of a real server, signs in, reads the consent page, approves, and is redirected to a loopback
 * redirect_uri served by this test; the test then exchanges the code (PKCE) and calls the API with the token.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApi } from '../helpers/api';
import { addClient, addUser, PASSWORD, pkcePair, postOAuth } from '../main/server/oauth-helpers';
import { clockedContext, launchChromium } from './helpers/ui-server';

let browser: Browser;
let callbackServer: http.Server;
let callbackBase: string;
const hits: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  callbackServer = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Callback</title><p>Back in the app.</p>');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  callbackBase = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callbackServer?.close(resolve));
});

async function setup() {
  const api = await makeTestApi();
  const base = await api.listen();
  await addUser(api.db, 'Acme', 'ana@acme.test');
  const redirectUri = `${callbackBase}/callback`;
  const { clientId } = addClient(api.db, 'Acme', {
    isPublic: true,
    name: 'Books Sync',
    scopes: ['customers.read', 'tags.read'],
    redirectUris: [redirectUri],
  });
  const pkce = pkcePair();
  const authorizeUrl = `${base}/v1/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'customers.read',
    state: 'browser-state',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  })}`;
  return { api, base, clientId, redirectUri, pkce, authorizeUrl };
}

describe('OAuth authorize page in Chromium', () => {
  it('signs in, shows the consent, approves, and the code becomes a working token', async () => {
    const s = await setup();
    const context = await clockedContext(browser);
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });

    await page.goto(s.authorizeUrl);
    await expect(page.locator('h1').textContent()).resolves.toContain('Sign in to continue to Books Sync');
    await page.fill('input[name=email]', 'ana@acme.test');
    await page.fill('input[name=password]', 'not the password');
    await page.click('button[value=login]');
    await expect(page.locator('[role=alert]').textContent()).resolves.toMatch(/email or password is not right/);

    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[value=login]');
    await page.waitForSelector('button[value=approve]');
    const consent = (await page.locator('main').textContent()) ?? '';
    expect(consent).toContain('Books Sync wants to access');
    expect(consent).toContain('Acme');
    expect(consent).toContain('Read customers');
    expect(consent).toContain('ana@acme.test');
    expect(consent).not.toContain('tags.read');

    await Promise.all([page.waitForURL(`${s.redirectUri}?**`), page.click('button[value=approve]')]);
    const landed = new URL(page.url());
    expect(await page.textContent('p')).toBe('Back in the app.');
    expect(hits.some((h) => h.startsWith('/callback?code='))).toBe(true);
    expect(landed.searchParams.get('state')).toBe('browser-state');
    const code = landed.searchParams.get('code');
    expect(code).toMatch(/^finops_ac_/);
    expect(cspErrors).toEqual([]);

    const tokens = await postOAuth(s.base, 'token', {
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: s.redirectUri,
      code_verifier: s.pkce.verifier,
      client_id: s.clientId,
    });
    expect(tokens.status).toBe(200);
    const auth = { authorization: `Bearer ${tokens.body.access_token}` };
    const customers = await fetch(`${s.base}/v1/customers`, { headers: auth });
    expect(customers.status).toBe(200);
    expect(await customers.json()).toMatchObject({ data: [] });
    const tags = await fetch(`${s.base}/v1/tags`, { headers: auth });
    expect(tags.status).toBe(403);
    await context.close();
  });

  it('deny sends the browser back with error=access_denied', async () => {
    const s = await setup();
    const context = await clockedContext(browser);
    const page = await context.newPage();
    await page.goto(s.authorizeUrl);
    await Promise.all([page.waitForURL(`${s.redirectUri}?**`), page.click('button[value=deny]')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('browser-state');
    expect(landed.searchParams.get('code')).toBeNull();
    await context.close();
  });
});
