/**
 * What a journey file needs for all its tests: the web UI built once and Debian's Chromium, both gone after the
 * file; and for each test a fresh server, a browser context in the run's language and a page on it.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { AppPage } from '../pages/app-page';
import { contextOptions } from './i18n';
import { buildWebUi, clockedContext, launchChromium, startUiServer, type UiServer } from './ui-server';

export interface Journey {
  ui: UiServer;
  context: BrowserContext;
  page: Page;
  app: AppPage;
}

/** Registers the hooks; the returned object holds the current test's server, context, page and app. */
export function journeySuite(options: BrowserContextOptions = {}, prepare?: (ui: UiServer) => void): Journey {
  let webRoot: string | undefined;
  let browser: Browser | undefined;
  const current = {} as Journey;
  beforeAll(async () => {
    webRoot = await buildWebUi();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
  });
  beforeEach(async () => {
    if (!webRoot || !browser) throw new Error('the web UI or the browser is missing');
    current.ui = await startUiServer(webRoot);
    prepare?.(current.ui);
    current.context = await clockedContext(browser, contextOptions(options));
    current.page = await current.context.newPage();
    current.app = new AppPage(current.page, current.ui.url);
    return async () => {
      await current.context.close();
      await current.ui.close();
    };
  });
  return current;
}
