import { describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey, touchApiKey } from '../../../src-main/store/auth/api-keys';
import { createClient } from '../../../src-main/store/auth/oauth/clients';
import { createAuthorizationCode, exchangeAuthorizationCode } from '../../../src-main/store/auth/oauth/codes';
import { revokeGrant } from '../../../src-main/store/auth/oauth/grants';
import { createSession } from '../../../src-main/store/auth/oauth/login-sessions';
import { issueClientCredentials, revokeToken } from '../../../src-main/store/auth/oauth/tokens';
import { changeStamp, type Db, openDatabase } from '../../../src-main/store/db';
import { createTag } from '../../../src-main/store/tags/tags';
import { teamVersions } from '../../../src-main/store/team-versions';
import { createTeam } from '../../../src-main/store/teams/teams';
import { createUser } from '../../../src-main/store/users/users';
import { tmpDir } from '../../helpers/tmp';

/** The team's counters read straight from its row (no memo). */
function counters(db: Db, teamId: string) {
  return db.prepare('SELECT change_seq AS changeSeq, auth_seq AS authSeq FROM teams WHERE id = ?').get(teamId) as {
    changeSeq: number;
    authSeq: number;
  };
}

function setup() {
  const db = openDatabase(tmpDir());
  const mine = createTeam(db, { name: 'Mine' });
  const theirs = createTeam(db, { name: 'Theirs' });
  const { client } = createClient(db, mine.id, {
    name: 'c',
    scopes: ['customers.read'],
    redirectUris: ['http://127.0.0.1:9/cb'],
    isPublic: false,
  });
  const issue = () => {
    const out = issueClientCredentials(db, { client, scope: undefined });
    if (!out.ok) throw new Error(out.description);
    return out;
  };
  return { db, mine, theirs, client, issue };
}

describe('team versions (auth_seq and change_seq)', () => {
  it('moves auth_seq with every revocation of a team’s credential, and only that team’s', () => {
    const { db, mine, theirs, client, issue } = setup();
    const start = counters(db, mine.id).authSeq;
    const theirsStart = counters(db, theirs.id).authSeq;
    const { apiKey } = createApiKey(db, { teamId: mine.id, name: 'k', scopes: ['customers.read'] });
    revokeApiKey(db, apiKey.id);
    expect(counters(db, mine.id).authSeq).toBe(start + 1);
    revokeToken(db, client, issue().accessToken);
    expect(counters(db, mine.id).authSeq).toBe(start + 2);
    revokeGrant(db, issue().grantId, 'test');
    expect(counters(db, mine.id).authSeq).toBe(start + 3);
    expect(counters(db, theirs.id).authSeq).toBe(theirsStart);
    db.close();
  });

  it('moves auth_seq when a replayed authorization code revokes its grant', () => {
    const { db, mine, client } = setup();
    const { user } = createUser(db, mine.id, { email: 'a@example.com', passwordHash: 'x' });
    const { code } = createAuthorizationCode(db, {
      client,
      userId: user.id,
      scopes: ['customers.read'],
      redirectUri: 'http://127.0.0.1:9/cb',
      codeChallenge: null,
    });
    const input = { client, code, redirectUri: 'http://127.0.0.1:9/cb', codeVerifier: undefined };
    expect(exchangeAuthorizationCode(db, input).ok).toBe(true);
    const before = counters(db, mine.id).authSeq;
    expect(exchangeAuthorizationCode(db, input).ok).toBe(false);
    expect(counters(db, mine.id).authSeq).toBe(before + 1);
    db.close();
  });

  it('leaves both counters alone for bookkeeping writes (lastUsedAt, a login session, issuing a token)', () => {
    const { db, mine, issue } = setup();
    const { apiKey } = createApiKey(db, { teamId: mine.id, name: 'k', scopes: ['customers.read'] });
    const before = counters(db, mine.id);
    touchApiKey(db, apiKey);
    issue();
    const { user } = createUser(db, mine.id, { email: 'b@example.com', passwordHash: 'x' });
    createSession(db, user.id);
    expect(counters(db, mine.id)).toEqual(before);
    db.close();
  });

  it('reads a team’s counters once per change stamp, and afresh once the stamp moves', () => {
    const { db, mine, theirs } = setup();
    const stamp = changeStamp(db);
    const first = teamVersions(db, mine.id, stamp);
    expect(first).toEqual(counters(db, mine.id));
    // Under the same stamp the memo answers, even if the row were changed behind the stamp's back.
    db.prepare('UPDATE teams SET auth_seq = auth_seq + 100 WHERE id = ?').run(mine.id);
    expect(teamVersions(db, mine.id, stamp)).toEqual(first);
    expect(teamVersions(db, mine.id)).toEqual(counters(db, mine.id));
    const theirsBefore = counters(db, theirs.id).changeSeq;
    createTag(db, theirs.id, { name: 't' });
    expect(counters(db, theirs.id).changeSeq).toBeGreaterThan(theirsBefore);
    expect(teamVersions(db, theirs.id)?.changeSeq).toBe(counters(db, theirs.id).changeSeq);
    expect(teamVersions(db, 'no-such-team')).toBeUndefined();
    db.close();
  });
});
