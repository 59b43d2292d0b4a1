import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { AppPage } from '../pages/app-page';
import { contextOptions } from './i18n';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './ui-server';

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
    webRoot = webUiRoot();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
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
