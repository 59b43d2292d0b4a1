/** Where the app keeps things per OS, and the path of a file electron-builder unpacked from the archive. */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAppDir, defaultDataDir, unpackedPath } from '../../src-main/paths';

describe('paths', () => {
  it('puts the app folder in each OS’s per-user application data, and the data inside it', () => {
    expect(defaultAppDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux')).toBe(path.join('/x/cfg', 'Finops Desk'));
    expect(defaultAppDir({}, 'linux')).toBe(path.join(os.homedir(), '.config', 'Finops Desk'));
    expect(defaultAppDir({}, 'darwin')).toBe(path.join(os.homedir(), 'Library', 'Application Support', 'Finops Desk'));
    expect(defaultAppDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(
      path.join('C:\\Users\\a\\AppData\\Roaming', 'Finops Desk'),
    );
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux')).toBe(path.join('/x/cfg', 'Finops Desk', 'data'));
    expect(defaultDataDir({ FINOPS_DATA_DIR: '/d', XDG_CONFIG_HOME: '/x/cfg' }, 'linux')).toBe('/d');
  });

  it('maps a path inside app.asar to app.asar.unpacked, and leaves every other path alone', () => {
    expect(unpackedPath('/opt/Finops Desk/resources/app.asar/out/main/ocr-worker.cjs')).toBe(
      '/opt/Finops Desk/resources/app.asar.unpacked/out/main/ocr-worker.cjs',
    );
    expect(unpackedPath('C:\\Program Files\\Finops Desk\\resources\\app.asar\\node_modules\\x')).toBe(
      'C:\\Program Files\\Finops Desk\\resources\\app.asar.unpacked\\node_modules\\x',
    );
    expect(unpackedPath('/work/repo/out/main/ocr-worker.cjs')).toBe('/work/repo/out/main/ocr-worker.cjs');
    expect(unpackedPath('/x/app.asar.unpacked/y')).toBe('/x/app.asar.unpacked/y');
  });
});
