import { describe, expect, it } from 'vitest';
import { createApiKey, findActiveApiKey, getApiKey, revokeApiKey, touchApiKey } from '../../../../src-main/store/auth/api-keys';
import { openDatabase } from '../../../../src-main/store/db';
import { createTeam } from '../../../../src-main/store/teams/teams';
import { tmpDir } from '../../../helpers/tmp';

describe('api keys', () => {
  it('stores only a hash, finds the active key, and forgets it once revoked', () => {
    const db = openDatabase(tmpDir());
    const team = createTeam(db, { name: 'A' });
    const { key, apiKey } = createApiKey(db, { teamId: team.id, name: 'ci', scopes: ['customers.read'] });
    expect(key).toMatch(/^finops_[0-9a-f]{64}$/);
    const stored = db.prepare('SELECT * FROM api_keys').all();
    expect(JSON.stringify(stored)).not.toContain(key.slice(7));
    expect(findActiveApiKey(db, key)?.id).toBe(apiKey.id);
    const otherLast = key.endsWith('0') ? '1' : '0';
    expect(findActiveApiKey(db, `${key.slice(0, -1)}${otherLast}`)).toBeUndefined();
    expect(findActiveApiKey(db, 'not-a-key')).toBeUndefined();
    revokeApiKey(db, apiKey.id);
    expect(findActiveApiKey(db, key)).toBeUndefined();
    db.close();
  });

  it('records lastUsedAt at most once a minute', () => {
    const db = openDatabase(tmpDir());
    const team = createTeam(db, { name: 'A' });
    const { apiKey } = createApiKey(db, { teamId: team.id, name: 'ci', scopes: ['apis.all'] });
    expect(apiKey.lastUsedAt).toBeNull();
    const t0 = new Date('2026-01-01T10:00:00Z');
    touchApiKey(db, apiKey, t0);
    const used = getApiKey(db, team.id, apiKey.id);
    expect(used.lastUsedAt).toBe(t0.toISOString());
    touchApiKey(db, used, new Date('2026-01-01T10:00:30Z'));
    expect(getApiKey(db, team.id, apiKey.id).lastUsedAt).toBe(t0.toISOString());
    touchApiKey(db, used, new Date('2026-01-01T10:01:30Z'));
    expect(getApiKey(db, team.id, apiKey.id).lastUsedAt).toBe('2026-01-01T10:01:30.000Z');
    db.close();
  });
});
