import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSmtpPassword } from '../../../../src-main/invoices/smtp-secrets';
import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { getSmtpSettings } from '../../../../src-main/store/invoices/smtp';
import { makeTestApi } from '../../../helpers/api';

const SETTINGS = {
  host: 'smtp.example.com',
  port: 587,
  security: 'starttls',
  username: 'billing@acme.test',
  password: 'hunter2-long-secret',
  fromAddress: 'billing@acme.test',
  fromName: 'Acme Billing',
};

describe('/app/smtp', () => {
  it('sets, shows (never the password), changes and removes the mail server, the password in the secret file', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const teamId = api.team('Acme').id;
    expect((await api.call('GET', '/app/smtp', { token })).json()).toEqual({ data: null });

    const set = await api.call('PUT', '/app/smtp', { token, body: SETTINGS });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ host: 'smtp.example.com', port: 587, passwordSet: true, fromName: 'Acme Billing' });
    expect(set.body).not.toContain('hunter2');
    expect(readSmtpPassword(api.dataDir, teamId, {})).toBe('hunter2-long-secret');
    // Not in the database.
    const dbBytes = fs.readFileSync(path.join(api.dataDir, path.basename(api.db.name)));
    expect(dbBytes.includes('hunter2')).toBe(false);

    // Without a password the stored one is kept; without a user name there is none.
    const { password: _omit, ...noPassword } = SETTINGS;
    const kept = await api.call('PUT', '/app/smtp', { token, body: { ...noPassword, port: 465, security: 'tls' } });
    expect(kept.json().data).toMatchObject({ port: 465, security: 'tls', passwordSet: true });
    const relay = await api.call('PUT', '/app/smtp', {
      token,
      body: { ...noPassword, username: '', security: 'none', port: 25 },
    });
    expect(relay.json().data).toMatchObject({ username: null, passwordSet: false });
    expect(readSmtpPassword(api.dataDir, teamId, {})).toBeUndefined();

    expect((await api.call('DELETE', '/app/smtp', { token })).json()).toEqual({ data: null });
    expect(getSmtpSettings(api.db, teamId)).toBeUndefined();
    expect((await api.call('DELETE', '/app/smtp', { token })).statusCode).toBe(404);
  });

  it('says which field is wrong, and is team administration; a team sees only its own', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const bad = await api.call('PUT', '/app/smtp', { token, body: { ...SETTINGS, port: 0, fromAddress: 'nope', host: 'a b' } });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['fromAddress', 'host', 'port']);

    const member = createApiKey(api.db, { teamId: api.team('Acme').id, name: 'm', scopes: ['invoices.read', 'invoices.write'] });
    expect((await api.call('PUT', '/app/smtp', { token: member.key, body: SETTINGS })).statusCode).toBe(403);
    expect((await api.call('DELETE', '/app/smtp', { token: member.key })).statusCode).toBe(403);
    expect((await api.call('GET', '/app/smtp', { token: member.key })).statusCode).toBe(200);

    await api.call('PUT', '/app/smtp', { token, body: SETTINGS });
    const other = api.key('Other Co');
    expect((await api.call('GET', '/app/smtp', { token: other })).json()).toEqual({ data: null });
  });
});
