import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { readAccessPointKey } from '../../../../src-main/einvoice/access-point/secrets';
import { readInboxSecrets } from '../../../../src-main/inbox-ingest/secrets';
import { makeTestApi } from '../../../helpers/api';

/**
 * Secrets go only where they were given for (docs/decisions/0176): the server-wide `$FINOPS_SMTP_PASSWORD` reaches
 * only the mail server `$FINOPS_SMTP_HOST` names (or serves a one-team data dir) — checked against a real SMTP server
 * that records the password it is offered — and a stored SMTP or IMAP password or access-point key is dropped when
 * its host changes, unless the request gives it again.
 */
const restore: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const r of restore.splice(0).reverse()) await r();
});

function setEnv(name: string, value: string | undefined): void {
  const before = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  restore.push(() => {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  });
}

/** A real SMTP server on loopback that asks for a login and records each password it is offered. */
async function authSmtp(): Promise<{ port: number; passwords: string[]; connections: () => number }> {
  const passwords: string[] = [];
  let connections = 0;
  const server = new SMTPServer({
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      passwords.push(auth.password ?? '');
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  restore.push(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.server.address() as { port: number }).port, passwords, connections: () => connections };
}

const mailServer = (port: number) => ({
  host: '127.0.0.1',
  port,
  security: 'none',
  username: 'billing@acme.test',
  fromAddress: 'billing@acme.test',
  fromName: 'Acme',
});

describe('$FINOPS_SMTP_PASSWORD', () => {
  it('is never offered to a mail server a team of a multi-team server chose', async () => {
    const smtp = await authSmtp();
    setEnv('FINOPS_SMTP_PASSWORD', 'operator-mail-secret');
    setEnv('FINOPS_SMTP_HOST', undefined);
    const api = await makeTestApi();
    api.key('Acme');
    const token = api.key('Globex');
    await api.call('PUT', '/app/smtp', { token, body: mailServer(smtp.port) });
    await api.call('POST', '/app/smtp/test', { token, body: { to: 'ap@example.com' } });
    // The server was reached: what it was offered (nothing) was not the operator's password.
    expect(smtp.connections()).toBeGreaterThan(0);
    expect(smtp.passwords).not.toContain('operator-mail-secret');

    setEnv('FINOPS_SMTP_HOST', 'mail.example.com');
    await api.call('POST', '/app/smtp/test', { token, body: { to: 'ap@example.com' } });
    expect(smtp.passwords).not.toContain('operator-mail-secret');
  });

  it('goes to the host it is bound to', async () => {
    const smtp = await authSmtp();
    setEnv('FINOPS_SMTP_PASSWORD', 'operator-mail-secret');
    setEnv('FINOPS_SMTP_HOST', `127.0.0.1:${smtp.port}`);
    const api = await makeTestApi();
    api.key('Acme');
    const token = api.key('Globex');
    await api.call('PUT', '/app/smtp', { token, body: mailServer(smtp.port) });
    const sent = await api.call('POST', '/app/smtp/test', { token, body: { to: 'ap@example.com' } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(smtp.passwords).toEqual(['operator-mail-secret']);
  });
});

describe('a stored secret and a changed host', () => {
  it('drops the SMTP password when the mail server moves, keeps it on the same host, takes a new one given', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const body = { ...mailServer(587), host: 'smtp.example.com', security: 'starttls' };
    await api.call('PUT', '/app/smtp', { token, body: { ...body, password: 'first-secret' } });
    const samePlace = await api.call('PUT', '/app/smtp', { token, body: { ...body, port: 465, security: 'tls' } });
    expect(samePlace.json().data.passwordSet).toBe(true);
    const moved = await api.call('PUT', '/app/smtp', { token, body: { ...body, host: 'smtp.attacker.test' } });
    expect(moved.json().data.passwordSet).toBe(false);
    const given = await api.call('PUT', '/app/smtp', { token, body: { ...body, host: 'smtp.other.test', password: 'second' } });
    expect(given.json().data.passwordSet).toBe(true);
  });

  it('drops the IMAP password when the mailbox moves to another server', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const teamId = api.team('Acme').id;
    const box = { host: 'imap.example.com', port: 993, security: 'tls', user: 'receipts@acme.test' };
    await api.call('PUT', '/app/inbox-sources/imap', { token, body: { ...box, password: 'imap-secret' } });
    await api.call('PUT', '/app/inbox-sources/imap', { token, body: { ...box, mailbox: 'Receipts' } });
    expect(readInboxSecrets(api.dataDir, teamId).imapPassword).toBe('imap-secret');
    const moved = await api.call('PUT', '/app/inbox-sources/imap', { token, body: { ...box, host: 'imap.attacker.test' } });
    expect(moved.json().imap.passwordSet).toBe(false);
    expect(readInboxSecrets(api.dataDir, teamId).imapPassword).toBeUndefined();
  });

  it('drops the access-point key when the access point moves: the key must be given again', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const teamId = api.team('Acme').id;
    const ap = { baseUrl: 'https://api.storecove.com/api/v2', legalEntityId: 7 };
    expect((await api.call('PUT', '/app/einvoice/access-point', { token, body: { ...ap, apiKey: 'ap-key-1' } })).statusCode).toBe(
      200,
    );
    expect((await api.call('PUT', '/app/einvoice/access-point', { token, body: { ...ap, legalEntityId: 8 } })).statusCode).toBe(
      200,
    );
    expect(readAccessPointKey(api.dataDir, teamId)).toBe('ap-key-1');
    const moved = await api.call('PUT', '/app/einvoice/access-point', {
      token,
      body: { ...ap, baseUrl: 'https://collector.attacker.test/api' },
    });
    expect(moved.statusCode).toBe(422);
    expect(readAccessPointKey(api.dataDir, teamId)).toBeUndefined();
    const again = await api.call('PUT', '/app/einvoice/access-point', {
      token,
      body: { ...ap, baseUrl: 'https://sandbox.example.test/api', apiKey: 'ap-key-2' },
    });
    expect(again.statusCode).toBe(200);
  });
});
