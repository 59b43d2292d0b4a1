/**
 * The update check against a real feed served over loopback HTTP (electron-builder's channel file format), and the
 * settings that keep it off by default.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkForUpdate,
  feedFileName,
  isNewer,
  parseChannelFile,
  readUpdateSettings,
} from '../../../src-main/desktop/update-check';
import { tmpDir } from '../../helpers/tmp';

const CHANNEL_FILE = `version: 0.4.0
files:
  - url: Finops-Desk-0.4.0.AppImage
    sha512: abc==
    size: 123
path: Finops-Desk-0.4.0.AppImage
sha512: abc==
releaseDate: '2026-12-01T10:00:00.000Z'
`;

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function feed(files: Record<string, { status?: number; body?: string; delayMs?: number }>): Promise<string> {
  const server = http.createServer((req, res) => {
    const f = files[req.url ?? ''];
    setTimeout(() => res.writeHead(f?.status ?? (f ? 200 : 404)).end(f?.body ?? ''), f?.delayMs ?? 0);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/stable`;
}

const base = { platform: 'linux' as const, arch: 'x64' };

describe('update check', () => {
  it('finds a newer version in the channel file of this platform, with its download', async () => {
    const feedUrl = await feed({ '/releases/stable/latest-linux.yml': { body: CHANNEL_FILE } });
    expect(await checkForUpdate({ ...base, feedUrl: `${feedUrl}/`, currentVersion: '0.3.9' })).toEqual({
      state: 'newer',
      version: '0.4.0',
      downloadUrl: `${feedUrl}/Finops-Desk-0.4.0.AppImage`,
    });
    expect(await checkForUpdate({ ...base, feedUrl: `${feedUrl}/`, currentVersion: '0.4.0' })).toEqual({
      state: 'current',
      version: '0.4.0',
    });
  });

  it('answers failed, never throws: no file, a server error, no version, no answer in time, nobody listening', async () => {
    const feedUrl = `${await feed({
      '/releases/stable/latest.yml': { status: 500 },
      '/releases/stable/latest-mac.yml': { body: 'files: []\n' },
      '/releases/stable/latest-linux-arm64.yml': { body: CHANNEL_FILE, delayMs: 2000 },
    })}/`;
    const check = (platform: NodeJS.Platform, arch = 'x64', over = {}) =>
      checkForUpdate({ feedUrl, platform, arch, currentVersion: '0.1.0', timeoutMs: 300, ...over });
    expect(await check('linux')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/answered 404/) });
    expect(await check('win32')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/answered 500/) });
    expect(await check('darwin')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/names no version/) });
    expect(await check('linux', 'arm64')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/abort|timeout/i) });
    const closed = await check('linux', 'x64', { feedUrl: 'http://127.0.0.1:1/' });
    expect(closed.state).toBe('failed');
  });

  it('orders versions as releases do', () => {
    expect(isNewer('0.10.0', '0.9.9')).toBe(true);
    expect(isNewer('1.0.0', '1.0.0-beta.2')).toBe(true);
    expect(isNewer('1.0.0-beta.10', '1.0.0-beta.2')).toBe(true);
    expect(isNewer('1.0.0-beta.2', '1.0.0')).toBe(false);
    expect(isNewer('0.1.0', '0.1.0')).toBe(false);
    expect(isNewer('v2.0.0', '1.9.0')).toBe(true);
    expect(isNewer('latest', '1.0.0')).toBe(false);
  });

  it('reads the top-level version and path of a channel file', () => {
    expect(parseChannelFile(CHANNEL_FILE)).toEqual({ version: '0.4.0', path: 'Finops-Desk-0.4.0.AppImage' });
    expect(parseChannelFile("version: '1.2.3'\n")).toEqual({ version: '1.2.3', path: null });
    expect(feedFileName('darwin', 'arm64')).toBe('latest-mac.yml');
    expect(feedFileName('win32', 'x64')).toBe('latest.yml');
  });
});

describe('update settings', () => {
  it('are off, without a channel, by default', () => {
    expect(readUpdateSettings(path.join(tmpDir('finops-upd-'), 'settings.json'), {})).toEqual({ check: false, feedUrl: null });
  });

  it('take the feed from the environment, else the settings file, else the packaged one; https only (http to loopback)', () => {
    const file = path.join(tmpDir('finops-upd-'), 'settings.json');
    fs.writeFileSync(file, JSON.stringify({ updates: { check: true, feedUrl: 'https://dl.example.com/finops' } }));
    expect(readUpdateSettings(file, {})).toEqual({ check: true, feedUrl: 'https://dl.example.com/finops/' });
    expect(readUpdateSettings(file, { FINOPS_UPDATE_FEED: 'https://other.example/stable/' }).feedUrl).toBe(
      'https://other.example/stable/',
    );
    expect(readUpdateSettings(file, { FINOPS_UPDATE_FEED: 'http://plain.example/' }).feedUrl).toBe(
      'https://dl.example.com/finops/',
    );
    fs.writeFileSync(file, '{"updates": {"check": "yes"}}');
    expect(readUpdateSettings(file, {}, 'https://packaged.example/feed')).toEqual({
      check: false,
      feedUrl: 'https://packaged.example/feed/',
    });
    fs.writeFileSync(file, 'garbage');
    expect(readUpdateSettings(file, {})).toEqual({ check: false, feedUrl: null });
  });
});
