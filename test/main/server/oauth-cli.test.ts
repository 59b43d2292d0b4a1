/**
 * `finops user create` and `finops oauth-client create` through the real launcher, then the created user and
 * client used against a server on the same data dir.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/server/app';
import { openDatabase } from '../../../src-main/store/db';
import { FINOPS_BIN, runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';
import { driveAuthorize, pkcePair, postOAuth } from './oauth-helpers';

function withStdin(args: string[], input: string) {
  const r = spawnSync(FINOPS_BIN, args, { input, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('finops user / oauth-client', () => {
  it.each([
    [['user', 'create', '--team', 'A', '--email', 'a@b.test'], /password is needed/],
    [['user', 'create', '--team', 'A', '--email', 'not-an-email', '--password', 'longenough'], /--email.*invalid.*email/],
    [['user', 'create', '--team', 'A', '--email', 'a@b.test', '--password', 'short'], /at least 8 characters/],
    [['user', 'create', '--team', 'A', '--email', 'a@b.test', '--password', 'longenough', '--role', 'admin'], /--role.*invalid/],
    [['user', 'create', '--email', 'a@b.test', '--password', 'longenough'], /required option '--team/],
    [
      ['oauth-client', 'create', '--team', 'A', '--scopes', 'customers.read', '--redirect-uri', 'http://evil.example/cb'],
      /loopback/,
    ],
    [
      ['oauth-client', 'create', '--team', 'A', '--scopes', 'nope.read', '--redirect-uri', 'https://a.example/cb'],
      /unknown scope/,
    ],
    [['oauth-client', 'create', '--team', 'A', '--scopes', 'customers.read', '--public'], /public client needs/],
    [['oauth-client', 'create', '--team', 'A', '--redirect-uri', 'https://a.example/cb'], /required option '--scopes/],
  ])('finops %j exits 2 with a one-line message', (args, message) => {
    const r = runCli([...args, '--data-dir', tmpDir()]);
    expect(r.stderr).toMatch(message);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('creates a user (password from stdin) and a client, which then work for the code flow', async () => {
    const dir = tmpDir();
    const created = withStdin(
      ['user', 'create', '--data-dir', dir, '--team', 'Acme', '--email', 'ana@acme.test', '--password-stdin', '--name', 'Ana A'],
      'pass phrase 1\n',
    );
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const user = JSON.parse(created.stdout);
    expect(user).toMatchObject({ email: 'ana@acme.test', fullName: 'Ana A', role: 'owner' });

    const dup = runCli([
      'user',
      'create',
      '--data-dir',
      dir,
      '--team',
      'Acme',
      '--email',
      'ANA@acme.test',
      '--password',
      'another one',
    ]);
    expect(dup.status).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);

    const pub = runCli([
      'oauth-client',
      'create',
      '--data-dir',
      dir,
      '--team',
      'Acme',
      '--scopes',
      'customers.read,tags.read',
      '--redirect-uri',
      'http://127.0.0.1:9/cb',
      '--redirect-uri',
      'https://app.example/cb',
      '--public',
      '--name',
      'Desk App',
    ]);
    expect(pub.status).toBe(0);
    const client = JSON.parse(pub.stdout);
    expect(client).toEqual({ client_id: expect.stringMatching(/^finops_ci_[0-9a-f]{32}$/), client_secret: null });

    const conf = runCli(['oauth-client', 'create', '--data-dir', dir, '--team', 'Acme', '--scopes', 'customers.read']);
    expect(conf.status).toBe(0);
    const confidential = JSON.parse(conf.stdout);
    expect(confidential.client_secret).toMatch(/^finops_cs_[0-9a-f]{64}$/);

    const listed = runCli(['oauth-client', 'list', '--data-dir', dir, '--team', 'Acme']);
    expect(listed.stdout).toContain('Desk App');
    expect(listed.stdout).not.toContain(confidential.client_secret);

    const db = openDatabase(dir);
    const app = await buildApp({ db, logLevel: 'silent' });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const pkce = pkcePair();
      const { location } = await driveAuthorize(
        base,
        {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: 'http://127.0.0.1:9/cb',
          state: 's',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        },
        { email: 'ana@acme.test', password: 'pass phrase 1' },
      );
      const tokens = await postOAuth(base, 'token', {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        redirect_uri: 'http://127.0.0.1:9/cb',
        code_verifier: pkce.verifier,
        client_id: client.client_id,
      });
      expect(tokens.status).toBe(200);
      expect(tokens.body.scope).toBe('customers.read tags.read');

      const cc = await postOAuth(
        base,
        'token',
        { grant_type: 'client_credentials' },
        { basic: [confidential.client_id, confidential.client_secret] },
      );
      expect(cc.status).toBe(200);
    } finally {
      await app.close();
      db.close();
    }
  });
});
