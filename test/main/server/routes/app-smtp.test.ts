import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSmtpPassword } from '../../../../src-main/invoices/smtp-secrets';
import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { getSmtpSettings } from '../../../../src-main/store/invoices/smtp';
import { createUser } from '../../../../src-main/store/users/users';
import { makeTestApi } from '../../../helpers/api';
import { closedPort, startTestSmtp } from '../../../helpers/smtp';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const relay = (port: number) => ({
  host: '127.0.0.1',
  port,
  security: 'none',
  username: null,
  fromAddress: 'billing@acme.test',
  fromName: 'Acme Billing',
});

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

  it('sends a test message through the saved server, to the owner by default or to the address given', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    createUser(api.db, api.team('Acme').id, { email: 'owner@acme.test', passwordHash: 'x', fullName: 'Olga Owner' });
    const smtp = await startTestSmtp();
    closers.push(() => smtp.close());

    const none = await api.call('POST', '/app/smtp/test', { token, body: {} });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('The team has no mail server');

    await api.call('PUT', '/app/smtp', { token, body: relay(smtp.port) });
    const own = await api.call('POST', '/app/smtp/test', { token, body: {} });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ to: 'owner@acme.test', response: expect.stringMatching(/^250/) });
    const given = await api.call('POST', '/app/smtp/test', { token, body: { to: 'ap@example.com' } });
    expect(given.json().data.to).toBe('ap@example.com');

    expect(smtp.received.map((m) => m.to)).toEqual([['owner@acme.test'], ['ap@example.com']]);
    const [first] = smtp.received;
    expect(first!.from).toBe('billing@acme.test');
    expect(first!.subject).toBe('Test message from Acme (Finops Desk)');
    expect(first!.messageId).toBe(own.json().data.messageId);
    expect(first!.raw).toContain('X-Finops-Test: 1');

    const bad = await api.call('POST', '/app/smtp/test', { token, body: { to: 'not an address' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields.map((f: { path: string }) => f.path)).toEqual(['to']);
  });

  it('says plainly why a test message did not go: nothing on the port, a refusal, no member to send to', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const port = await closedPort();
    await api.call('PUT', '/app/smtp', { token, body: relay(port) });

    // The team has no member yet: the address must be given.
    const nobody = await api.call('POST', '/app/smtp/test', { token, body: {} });
    expect(nobody.statusCode).toBe(422);
    expect(nobody.json().fields).toEqual([{ location: 'body', path: 'to', message: expect.any(String) }]);

    const refused = await api.call('POST', '/app/smtp/test', { token, body: { to: 'ap@example.com' } });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      error: 'Bad Gateway',
      message: `Nothing at 127.0.0.1:${port} takes connections: check the server and the port`,
      description: expect.stringContaining('ECONNREFUSED'),
      requestId: expect.any(String),
    });
    expect(refused.body).not.toMatch(/\bat .+\.(ts|js):\d+/); // no stack trace

    const smtp = await startTestSmtp();
    closers.push(() => smtp.close());
    smtp.onMessage = () => 'reject';
    await api.call('PUT', '/app/smtp', { token, body: relay(smtp.port) });
    const rejected = await api.call('POST', '/app/smtp/test', { token, body: { to: 'ap@example.com' } });
    expect(rejected.statusCode).toBe(502);
    expect(rejected.json()).toMatchObject({
      message: 'The mail server refused the message (554)',
      description: expect.stringContaining('Recipient refused'),
    });
    expect(smtp.received).toEqual([]);

    const member = createApiKey(api.db, { teamId: api.team('Acme').id, name: 'm', scopes: ['invoices.read', 'invoices.write'] });
    const forbidden = await api.call('POST', '/app/smtp/test', { token: member.key, body: { to: 'ap@example.com' } });
    expect(forbidden.statusCode).toBe(403);
  });
});
