/**
 * The private hosts the desktop app's user allows: checked by the rules of `finops serve --allow-private-hosts`,
 * kept in the shell's own file (real files, atomic replacement), merged with `$FINOPS_ALLOW_PRIVATE_HOSTS`, and
 * handed on only once saved.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allowanceInForce,
  checkPrivateHosts,
  environmentPrivateHosts,
  InvalidPrivateHostsInput,
  loadPrivateHosts,
  MAX_ENTRIES,
  PRIVATE_HOSTS_FILE,
  PrivateHostsSetting,
  savePrivateHosts,
} from '../../../src-main/desktop/private-hosts';
import { allows, parseAllowance } from '../../../src-main/outbound/allowance';
import { tmpDir } from '../../helpers/tmp';

const fileIn = (dir: string) => path.join(dir, 'app', PRIVATE_HOSTS_FILE);

describe('checkPrivateHosts', () => {
  it('takes what --allow-private-hosts takes: addresses, ranges, host names, each optionally with a port', () => {
    const entries = ['192.168.1.10:587', '10.0.0.0/8', 'fd00::/8', '::1', '[::1]:4100', 'mail.company.lan:993', 'sync.lan'];
    expect(checkPrivateHosts(entries)).toEqual({ ok: true, entries });
  });

  it('trims entries, drops empty ones and keeps a repeat once, whatever its letter case', () => {
    expect(checkPrivateHosts([' 192.168.1.10:587 ', '', '  ', 'Mail.Lan', 'mail.lan', '192.168.1.10:587'])).toEqual({
      ok: true,
      entries: ['192.168.1.10:587', 'Mail.Lan'],
    });
    expect(checkPrivateHosts([])).toEqual({ ok: true, entries: [] });
  });

  it('refuses the whole list, naming every entry that is not one and why', () => {
    const result = checkPrivateHosts([
      '192.168.1.10:587',
      'http://mail.lan',
      '10.0.0.0/33',
      'mail.lan:99999',
      'two words',
      '[fe80::zz]:1',
      'a.lan,b.lan',
      'x'.repeat(400),
    ]);
    expect(result.ok).toBe(false);
    const refused = result.ok ? [] : result.refused;
    expect(refused.map((r) => r.entry)).toEqual([
      'http://mail.lan',
      '10.0.0.0/33',
      'mail.lan:99999',
      'two words',
      '[fe80::zz]:1',
      'a.lan,b.lan',
      'x'.repeat(400),
    ]);
    expect(refused[0]!.message).toBe('"http://mail.lan" is not a CIDR range');
    expect(refused[1]!.message).toBe('"10.0.0.0/33" is not a CIDR range');
    expect(refused[2]!.message).toBe('"mail.lan:99999": 99999 is not a port');
    expect(refused[3]!.message).toBe('"two words" is not an address, a CIDR range or a host name');
    expect(refused[4]!.message).toBe('"[fe80::zz]:1" is not an IPv6 address');
    expect(refused[5]!.message).toMatch(/holds a comma/);
    expect(refused[6]!.message).toMatch(/longer than 300 characters/);
  });

  it('throws on what is not a list of text at all, or too long a list (a caller’s mistake)', () => {
    for (const input of [null, 'mail.lan', { entries: [] }, ['mail.lan', 5], [null]]) {
      expect(() => checkPrivateHosts(input), JSON.stringify(input)).toThrow(InvalidPrivateHostsInput);
    }
    expect(() => checkPrivateHosts(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => `h${i}.lan`))).toThrow(/at most/);
  });
});

describe('the file', () => {
  it('round-trips; absent, damaged or of another shape it allows nothing', () => {
    const file = fileIn(tmpDir('finops-ph-'));
    expect(loadPrivateHosts(file)).toEqual({ entries: [], ignored: [] });
    savePrivateHosts(file, ['192.168.1.10:587', '10.1.0.0/16']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ entries: ['192.168.1.10:587', '10.1.0.0/16'] });
    expect(loadPrivateHosts(file).entries).toEqual(['192.168.1.10:587', '10.1.0.0/16']);
    expect(fs.readdirSync(path.dirname(file))).toEqual([PRIVATE_HOSTS_FILE]);
    for (const text of ['{not json', 'null', '["10.0.0.1"]', '{"entries":"10.0.0.1"}']) {
      fs.writeFileSync(file, text);
      expect(loadPrivateHosts(file), text).toEqual({ entries: [], ignored: [] });
    }
  });

  it('leaves out a hand-edited bad entry (and says so) instead of refusing every request', () => {
    const file = fileIn(tmpDir('finops-ph-'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ entries: ['192.168.1.10:587', 'not a host', 7, 'mail.lan:0'] }));
    const loaded = loadPrivateHosts(file);
    expect(loaded.entries).toEqual(['192.168.1.10:587']);
    expect(loaded.ignored.map((i) => i.entry)).toEqual(['not a host', 'mail.lan:0']);
    expect(() => parseAllowance(loaded.entries)).not.toThrow();
  });
});

describe('with $FINOPS_ALLOW_PRIVATE_HOSTS', () => {
  it('adds the environment’s entries to the app’s, each once, the environment’s first', () => {
    const env = { FINOPS_ALLOW_PRIVATE_HOSTS: ' 127.0.0.0/8 , ,mail.lan:587' };
    expect(environmentPrivateHosts(env)).toEqual(['127.0.0.0/8', 'mail.lan:587']);
    expect(allowanceInForce(['192.168.1.10:587', 'MAIL.lan:587'], env)).toEqual([
      '127.0.0.0/8',
      'mail.lan:587',
      '192.168.1.10:587',
    ]);
    expect(allowanceInForce(['192.168.1.10:587'], {})).toEqual(['192.168.1.10:587']);
    const merged = parseAllowance(allowanceInForce(['192.168.1.10:587'], env));
    expect(allows(merged, { host: '192.168.1.10', address: '192.168.1.10', port: 587 })).toBe(true);
    expect(allows(merged, { host: '127.0.0.1', address: '127.0.0.1', port: 4100 })).toBe(true);
    expect(allows(merged, { host: '192.168.1.10', address: '192.168.1.10', port: 25 })).toBe(false);
  });
});

describe('PrivateHostsSetting', () => {
  it('saves and hands on a list only when every entry is one; a refused list changes nothing', () => {
    const file = fileIn(tmpDir('finops-ph-'));
    const setting = new PrivateHostsSetting(file, { FINOPS_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    const applied: string[][] = [];
    setting.onChange((entries) => applied.push(entries));
    expect(setting.get()).toEqual({ entries: [], fromEnvironment: ['127.0.0.1'] });

    expect(setting.set([' 192.168.1.10:587', 'mail.lan'])).toEqual({
      ok: true,
      saved: { entries: ['192.168.1.10:587', 'mail.lan'], fromEnvironment: ['127.0.0.1'] },
    });
    expect(applied).toEqual([['192.168.1.10:587', 'mail.lan']]);

    const refused = setting.set(['10.0.0.1', 'mail.lan:70000']);
    expect(refused).toEqual({
      ok: false,
      refused: [{ entry: 'mail.lan:70000', message: '"mail.lan:70000": 70000 is not a port' }],
    });
    expect(applied).toHaveLength(1);
    expect(setting.entries).toEqual(['192.168.1.10:587', 'mail.lan']);
    expect(() => setting.set('10.0.0.1')).toThrow(InvalidPrivateHostsInput);

    // The next launch reads what was saved.
    expect(new PrivateHostsSetting(file, {}).get()).toEqual({ entries: ['192.168.1.10:587', 'mail.lan'], fromEnvironment: [] });
    setting.set([]);
    expect(applied.at(-1)).toEqual([]);
    expect(new PrivateHostsSetting(file, {}).entries).toEqual([]);
  });
});
