import { describe, expect, it } from 'vitest';
import { type BearerResolver, credentialResolver, resolveApiKey } from '../../../../src-main/server/auth/credentials';
import { createApiKey, getApiKey, revokeApiKey, touchApiKey } from '../../../../src-main/store/auth/api-keys';
import { type Db, openDatabase } from '../../../../src-main/store/db';
import { beginIdempotentRequest } from '../../../../src-main/store/idempotency';
import { createTag } from '../../../../src-main/store/tags/tags';
import { createTeam } from '../../../../src-main/store/teams/teams';
import { tmpDir } from '../../../helpers/tmp';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** An API-key resolver that counts its lookups: a lookup is a cache miss. */
function countingResolver(): { resolver: BearerResolver; lookups: () => number } {
  let lookups = 0;
  return {
    resolver: (db, token) => {
      lookups++;
      return resolveApiKey(db, token);
    },
    lookups: () => lookups,
  };
}

function keyOf(db: Db, teamId: string) {
  return createApiKey(db, { teamId, name: 'k', scopes: ['customers.read'] });
}

describe('credentialResolver and its cache', () => {
  it('forgets a key revoked through another connection (the CLI beside the server) from the next event-loop turn', async () => {
    const dir = tmpDir();
    const server = openDatabase(dir);
    const cli = openDatabase(dir);
    const team = createTeam(server, { name: 'A' });
    const { key, apiKey } = keyOf(server, team.id);
    const resolveBearer = credentialResolver(server, [resolveApiKey]);
    const t0 = Date.now();
    expect(resolveBearer(key, t0)?.id).toBe(apiKey.id);
    expect(resolveBearer(key, t0 + 10)?.id).toBe(apiKey.id); // served from the cache
    revokeApiKey(cli, apiKey.id);
    // Within the turn in which the stamp was read, requests that arrived before the revocation still pass...
    expect(resolveBearer(key, t0 + 20)?.id).toBe(apiKey.id);
    // ...and any request arriving after it is handled in a later turn.
    await nextTurn();
    expect(resolveBearer(key, t0 + 30)).toBeUndefined();
    server.close();
    cli.close();
  });

  it('forgets a key revoked through the same connection', () => {
    const db = openDatabase(tmpDir());
    const team = createTeam(db, { name: 'A' });
    const { key, apiKey } = keyOf(db, team.id);
    const resolveBearer = credentialResolver(db, [resolveApiKey]);
    expect(resolveBearer(key)).toBeDefined();
    revokeApiKey(db, apiKey.id);
    expect(resolveBearer(key)).toBeUndefined();
    db.close();
  });

  it('keeps a credential through other teams’ writes, its own team’s data writes and bookkeeping writes', async () => {
    const dir = tmpDir();
    const db = openDatabase(dir);
    const cli = openDatabase(dir);
    const mine = createTeam(db, { name: 'Mine' });
    const theirs = createTeam(db, { name: 'Theirs' });
    const { key } = keyOf(db, mine.id);
    const sibling = keyOf(db, mine.id).apiKey;
    const theirKey = keyOf(db, theirs.id).apiKey;
    const counting = countingResolver();
    const resolveBearer = credentialResolver(db, [counting.resolver]);
    expect(resolveBearer(key)).toBeDefined();
    expect(counting.lookups()).toBe(1);

    revokeApiKey(db, theirKey.id); // another team's revocation
    createTag(db, theirs.id, { name: 'theirs' }); // another team's data
    createTag(db, mine.id, { name: 'mine' }); // my team's data: no credential changed
    touchApiKey(db, sibling); // lastUsedAt
    beginIdempotentRequest(db, mine.id, { credentialId: sibling.id, route: 'POST /x {}', key: 'k1' }, 'h', {
      now: new Date(),
      leaseMs: 30_000,
      retentionMs: 60_000,
    });
    createTag(cli, theirs.id, { name: 'theirs, from the CLI' });
    await nextTurn();
    expect(resolveBearer(key)).toBeDefined();
    expect(counting.lookups()).toBe(1);

    // A revocation in my team (of another key) makes every credential of the team resolve afresh, once.
    revokeApiKey(cli, sibling.id);
    await nextTurn();
    expect(resolveBearer(key)).toBeDefined();
    expect(resolveBearer(key)).toBeDefined();
    expect(counting.lookups()).toBe(2);
    db.close();
    cli.close();
  });

  it('resolves afresh after a minute, so lastUsedAt keeps moving', () => {
    const db = openDatabase(tmpDir());
    const team = createTeam(db, { name: 'A' });
    const { key, apiKey } = keyOf(db, team.id);
    const resolveBearer = credentialResolver(db, [resolveApiKey]);
    const t0 = Date.now();
    resolveBearer(key, t0);
    const first = getApiKey(db, team.id, apiKey.id).lastUsedAt;
    expect(first).not.toBeNull();
    resolveBearer(key, t0 + 10_000);
    expect(getApiKey(db, team.id, apiKey.id).lastUsedAt).toBe(first);
    // Past the cache's age limit the key is looked up (and touched) again; touch uses the wall clock, so move
    // the stored value back to make a minute look past.
    db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(new Date(t0 - 120_000).toISOString(), apiKey.id);
    resolveBearer(key, t0 + 61_000);
    expect(Date.parse(getApiKey(db, team.id, apiKey.id).lastUsedAt ?? '')).toBeGreaterThanOrEqual(t0 - 1000);
    db.close();
  });

  it('stops honouring an expiring credential at its expiry even while the database is unchanged', () => {
    const db = openDatabase(tmpDir());
    const expiresAt = Date.now() + 1000;
    let lookups = 0;
    const resolveBearer = credentialResolver(db, [
      resolveApiKey,
      (_db, token) => {
        if (token !== 'test-expiring-token') return undefined;
        lookups++;
        return lookups > 1
          ? undefined
          : {
              credential: { kind: 'oauth', id: 'g', teamId: 't', userId: null, granted: [], scopes: new Set(), expiresAt },
              authSeq: 0,
            };
      },
    ]);
    expect(resolveBearer('test-expiring-token', expiresAt - 500)).toBeDefined();
    expect(resolveBearer('test-expiring-token', expiresAt - 100)).toBeDefined();
    expect(lookups).toBe(1);
    expect(resolveBearer('test-expiring-token', expiresAt + 1)).toBeUndefined();
    expect(lookups).toBe(2);
    db.close();
  });

  it('uses only the resolvers it was given: the token kinds of one server do not leak into another', () => {
    const db = openDatabase(tmpDir());
    const custom: BearerResolver = (_db, token) =>
      token === 'custom-token'
        ? { credential: { kind: 'oauth', id: 'c', teamId: 't', userId: null, granted: [], scopes: new Set() }, authSeq: 0 }
        : undefined;
    const withCustom = credentialResolver(db, [resolveApiKey, custom]);
    const withoutCustom = credentialResolver(db, [resolveApiKey]);
    expect(withCustom('custom-token')?.id).toBe('c');
    expect(withoutCustom('custom-token')).toBeUndefined();
    db.close();
  });
});
