/** The application menu: the product's own, without developer tools or framework links in a release build. */
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, type MenuActions } from '../../../src-main/desktop/app-menu';

const actions: MenuActions = { openLogFolder: () => {}, restartServer: () => {}, checkForUpdates: () => {} };

function flat(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flat(i.submenu) : [])]);
}
const roles = (items: MenuItemConstructorOptions[]) =>
  flat(items)
    .map((i) => i.role)
    .filter(Boolean);
const labels = (items: MenuItemConstructorOptions[]) =>
  flat(items)
    .map((i) => i.label)
    .filter(Boolean);

describe('application menu', () => {
  it.each(['linux', 'win32', 'darwin'] as const)('a release build on %s has no developer tools, reloads or links', (platform) => {
    const menu = appMenuTemplate({ platform, productName: 'Finops Desk', developer: false, actions });
    expect(roles(menu)).not.toContain('toggleDevTools');
    expect(roles(menu)).not.toContain('reload');
    expect(roles(menu)).not.toContain('forceReload');
    expect(flat(menu).some((i) => 'url' in i || /electron/i.test(i.label ?? ''))).toBe(false);
    expect(roles(menu)).toEqual(expect.arrayContaining(['copy', 'paste', 'selectAll', 'undo', 'zoomIn', 'about', 'quit']));
    expect(labels(menu)).toEqual(
      expect.arrayContaining(['Open the Log Folder', 'Restart the Local Server', 'Check for Updates…']),
    );
  });

  it('development adds reloads and developer tools', () => {
    const menu = appMenuTemplate({ platform: 'linux', productName: 'Finops Desk', developer: true, actions });
    expect(roles(menu)).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
  });

  it('macOS starts with the application menu named for the product and keeps the Window conventions', () => {
    const menu = appMenuTemplate({ platform: 'darwin', productName: 'Finops Desk', developer: false, actions });
    expect(menu[0]?.label).toBe('Finops Desk');
    expect(roles([menu[0]!])).toEqual(expect.arrayContaining(['about', 'hide', 'quit']));
    expect(roles(menu)).toContain('front');
    const linux = appMenuTemplate({ platform: 'linux', productName: 'Finops Desk', developer: false, actions });
    expect(linux.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'Window', 'help']);
  });

  it('menu items run their actions; a found update replaces "Check for Updates…"', () => {
    const ran: string[] = [];
    const menu = appMenuTemplate({
      platform: 'win32',
      productName: 'Finops Desk',
      developer: false,
      actions: {
        openLogFolder: () => ran.push('log'),
        restartServer: () => ran.push('restart'),
        checkForUpdates: () => ran.push('check'),
        openUpdate: { version: '0.3.0', open: () => ran.push('download') },
      },
    });
    for (const label of ['Open the Log Folder', 'Restart the Local Server', 'Download version 0.3.0…']) {
      const click = flat(menu).find((i) => i.label === label)?.click as (() => void) | undefined;
      expect(click, label).toBeDefined();
      click?.();
    }
    expect(ran).toEqual(['log', 'restart', 'download']);
    expect(labels(menu)).not.toContain('Check for Updates…');
  });
});
