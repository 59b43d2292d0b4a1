import { describe, expect, it } from 'vitest';
import { DEFAULT_DESKTOP_TEAM, DESKTOP_KEY_NAME, desktopTeam, ensureDesktopKey } from '../../../src-main/desktop/desktop-key';
import { createApiKey, findActiveApiKey, listApiKeys, revokeApiKey } from '../../../src-main/store/auth/api-keys';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam, listTeams } from '../../../src-main/store/teams/teams';
import { tmpDir } from '../../helpers/tmp';

function db() {
  const d = openDatabase(tmpDir('finops-desktop-key-'));
  return d;
}

describe('the desktop team and key', () => {
  it('creates the default team in an empty data dir and mints a working apis.all key', () => {
    const d = db();
    const { key, created, teamId } = ensureDesktopKey(d, null);
    expect(created).toBe(true);
    expect(listTeams(d).map((t) => t.name)).toEqual([DEFAULT_DESKTOP_TEAM]);
    const active = findActiveApiKey(d, key);
    expect(active).toMatchObject({ teamId, name: DESKTOP_KEY_NAME, scopes: ['apis.all'] });
    d.close();
  });

  it('uses the first team of a data dir that has teams (e.g. seeded by finops demo)', () => {
    const d = db();
    const first = ensureTeam(d, 'Agency');
    ensureTeam(d, 'Zeta');
    expect(desktopTeam(d).id).toBe(first.id);
    expect(ensureDesktopKey(d, null).teamId).toBe(first.id);
    d.close();
  });

  it('keeps a presented key that is still active', () => {
    const d = db();
    const first = ensureDesktopKey(d, null);
    const again = ensureDesktopKey(d, first.key);
    expect(again).toEqual({ key: first.key, created: false, teamId: first.teamId });
    expect(listApiKeys(d, first.teamId)).toHaveLength(1);
    d.close();
  });

  it('replaces a revoked or unknown key and revokes the previous desktop keys', () => {
    const d = db();
    const first = ensureDesktopKey(d, null);
    revokeApiKey(d, first.key);
    const second = ensureDesktopKey(d, first.key);
    expect(second.created).toBe(true);
    expect(second.key).not.toBe(first.key);
    const third = ensureDesktopKey(d, `finops_${'0'.repeat(64)}`);
    expect(third.created).toBe(true);
    expect(findActiveApiKey(d, second.key)).toBeUndefined();
    expect(findActiveApiKey(d, third.key)).toBeDefined();
    d.close();
  });

  it("never accepts another team's key and leaves keys not made by the app alone", () => {
    const d = db();
    const desktop = ensureDesktopKey(d, null);
    const other = ensureTeam(d, 'Other');
    const foreign = createApiKey(d, { teamId: other.id, name: 'cli', scopes: ['apis.all'] }).key;
    const cliOfDesktopTeam = createApiKey(d, { teamId: desktop.teamId, name: 'cli', scopes: ['customers.read'] }).key;
    const result = ensureDesktopKey(d, foreign);
    expect(result.created).toBe(true);
    expect(result.teamId).toBe(desktop.teamId);
    expect(findActiveApiKey(d, foreign)).toBeDefined();
    expect(findActiveApiKey(d, cliOfDesktopTeam)).toBeDefined();
    d.close();
  });
});
