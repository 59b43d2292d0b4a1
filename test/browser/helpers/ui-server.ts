/**
 * What every browser test needs: the web UI built once for the run (global-setup.ts), a real server serving it and
 * the v1 API from a fresh data dir, and Debian's Chromium driven by playwright-core (never a downloaded browser).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import { inject } from 'vitest';
import { clockOffset, shiftGlobalDate } from '../../../src-main/clock';
import { planDemo } from '../../../src-main/demo/seed';
import { importDemoWorkflows } from '../../../src-main/demo/workflows';
import { writeDemo } from '../../../src-main/demo/write';
import { type RunningServer, startServer } from '../../../src-main/server/start';
import { createApiKey } from '../../../src-main/store/auth/api-keys';
import { updateMe } from '../../../src-main/store/teams/team-api';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { createUser, findUserByEmail, hashPassword } from '../../../src-main/store/users/users';
import type { Scope } from '../../../src-shared/contract/scopes';
import { testDay } from '../../helpers/clock';
import { USER_FORMATS } from './i18n';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The web UI built once for the whole browser run (test/browser/global-setup.ts); journeys only read it. */
export function webUiRoot(): string {
  return inject('webRoot');
}

export interface UiServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  key(team?: string, scopes?: Scope[]): string;
  /** Seeds the deterministic demo data set (~3,000 transactions, customers, invoices…) into the team. */
  seedDemo(team?: string, transactions?: number): void;
  /**
   * A local user of the team who signs in to the web UI (created once per email), with the formats of the run's
   * language chosen; `formats: false` leaves the server's defaults, as a new user has them.
   */
  user(team?: string, email?: string, options?: { formats?: boolean }): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
}

let passwordHash: string | undefined;

export async function startUiServer(webRoot: string): Promise<UiServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-browser-data-'));
  const server = await startServer({ dataDir, webRoot, port: 0, logLevel: 'error' });
  return {
    server,
    url: server.url,
    dataDir,
    key: (team = 'Browser Test Co', scopes = ['apis.all']) =>
      createApiKey(server.db, { teamId: ensureTeam(server.db, team).id, name: 'browser test', scopes }).key,
    seedDemo(team = 'Browser Test Co', transactions?: number) {
      const t = ensureTeam(server.db, team, { baseCurrency: 'EUR', countryCode: 'DE' });
      // Seeded as of the test clock's day, as `finops demo --as-of` does: the same data set on every run.
      const data = planDemo({ seed: '1', transactions, asOf: testDay() });
      data.baseCurrency = t.baseCurrency;
      writeDemo(server.db, t.id, data);
      importDemoWorkflows(server.db, t.id);
    },
    async user(team = 'Browser Test Co', email = 'accountant@example.com', options = {}) {
      const password = 'browser-test-password';
      if (!findUserByEmail(server.db, email)) {
        passwordHash ??= await hashPassword(password);
        const teamId = ensureTeam(server.db, team).id;
        const { user } = createUser(server.db, teamId, { email, passwordHash, fullName: 'Alex Accountant' });
        if (options.formats !== false) updateMe(server.db, { teamId, userId: user.id }, USER_FORMATS);
      }
      return { email, password };
    },
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install chromium`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A browser context on the test clock the server reads (test/helpers/clock.ts): the page's `Date` is shifted by the
 * same offset as this process's and the server's, by the function `shiftClock` uses in Node. Timers are not touched: a
 * page's setTimeout, React's scheduler and TanStack Query's notifications run on the real clock. (Playwright's
 * `clock.install` fakes the timers too, and on some offsets its fake timers stalled the page's first render.)
 */
export async function clockedContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const offset = clockOffset();
  if (offset !== 0) await context.addInitScript(shiftGlobalDate, offset);
  return context;
}
