/**
 * The IMAP fetcher against a real Dovecot (test/helpers/dovecot.ts) holding real messages appended over IMAP:
 * attachments (PDF, PNG, JPEG) become inbox items; a mail without attachments, an HTML logo and a text attachment
 * make none; the same mail twice, or the same file in another mail, makes one item. The cursor and the ledger keep it
 * that way across a restart and a lost cursor, and two `finops inbox fetch` processes on one data dir take each mail
 * once. Skipped, with the reason, where Dovecot is not installed. The tests that spawn `finops` are tagged slow.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxIntake } from '../../../src-main/inbox-ingest/runner';
import { setImapMailbox } from '../../../src-main/inbox-ingest/settings';
import { buildApp } from '../../../src-main/server/app';
import { DB_FILE_NAME, type Db, openDatabase } from '../../../src-main/store/db';
import { getInboxSource } from '../../../src-main/store/inbox/sources';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { FINOPS_BIN, runCli } from '../../helpers/cli';
import { dovecotUnavailable, startDovecot, type TestDovecot } from '../../helpers/dovecot';
import { cafePdf, composeMail, otherPdf, picture } from '../../helpers/mail';
import { tmpDir } from '../../helpers/tmp';

const unavailable = dovecotUnavailable();
if (unavailable) console.warn(`IMAP ingestion tests skipped: ${unavailable}`);

const fileNames = (db: Db, teamId: string) =>
  db.prepare('SELECT file_name FROM inbox_items WHERE team_id = ? ORDER BY file_name').pluck().all(teamId) as string[];

describe.skipIf(unavailable)('IMAP mailbox', () => {
  let dovecot: TestDovecot;
  beforeAll(async () => {
    dovecot = await startDovecot();
  });
  afterAll(() => dovecot?.stop());

  /** A fresh mailbox of the test user and a data dir whose team fetches it. */
  async function mailbox(name: string) {
    await dovecot.createMailbox(name);
    const dataDir = tmpDir('finops-data-');
    const db = openDatabase(dataDir);
    const teamId = ensureTeam(db, 'Acme').id;
    const config = { host: dovecot.host, port: dovecot.port, security: 'none' as const, user: dovecot.user, mailbox: name };
    setImapMailbox(db, dataDir, teamId, config, dovecot.password);
    return { dataDir, db, teamId, config, append: (raw: Buffer) => dovecot.append(raw, name) };
  }

  it('turns attachments into inbox items, once per mail and per file, skipping what is not a receipt', async () => {
    const box = await mailbox('Receipts1');
    const pdf = await cafePdf();
    const png = picture('png', 'lunch');
    const withTwo = await composeMail({
      messageId: '<two-attachments@shop.example>',
      attachments: [
        { filename: 'cafe.pdf', content: pdf },
        { filename: 'lunch.png', content: png },
      ],
    });
    await box.append(withTwo);
    await box.append(
      await composeMail({
        messageId: '<photo@shop.example>',
        attachments: [{ filename: 'taxi.jpg', content: picture('jpeg', 'taxi') }],
      }),
    );
    await box.append(await composeMail({ messageId: '<no-attachment@shop.example>', text: 'Your order has shipped.' }));
    await box.append(
      await composeMail({
        messageId: '<logo-and-notes@shop.example>',
        html: '<p><img src="cid:logo@shop"> Thanks!</p>',
        attachments: [
          { filename: 'logo.png', content: picture('png', 'logo'), cid: 'logo@shop' },
          { filename: 'notes.txt', content: Buffer.from('terms and conditions') },
        ],
      }),
    );
    await box.append(withTwo); // the same mail delivered twice
    await box.append(
      await composeMail({ messageId: '<forwarded@shop.example>', attachments: [{ filename: 'Fwd cafe.pdf', content: pdf }] }),
    );

    const intake = new InboxIntake(box.db, box.dataDir);
    const [first] = await intake.round('imap');
    expect(first).toMatchObject({ kind: 'imap', busy: false, created: 3, error: null });
    expect(fileNames(box.db, box.teamId)).toEqual(['cafe.pdf', 'lunch.png', 'taxi.jpg']);
    const items = box.db
      .prepare('SELECT content_type, status FROM inbox_items WHERE team_id = ? ORDER BY file_name')
      .all(box.teamId);
    expect(items).toEqual([
      { content_type: 'application/pdf', status: 'new' },
      { content_type: 'image/png', status: 'new' },
      { content_type: 'image/jpeg', status: 'new' },
    ]);
    const ledger = Object.fromEntries(
      (
        box.db.prepare("SELECT key, outcome, detail FROM inbox_ingested WHERE key LIKE 'message:%'").all() as {
          key: string;
          outcome: string;
          detail: string | null;
        }[]
      ).map((r) => [r.key, `${r.outcome}${r.detail ? `: ${r.detail}` : ''}`]),
    );
    expect(ledger).toEqual({
      'message:<two-attachments@shop.example>': 'created',
      'message:<photo@shop.example>': 'created',
      'message:<no-attachment@shop.example>': 'skipped: no attachment',
      'message:<logo-and-notes@shop.example>': 'skipped: no receipt attached',
      'message:<forwarded@shop.example>': 'duplicate',
    });
    expect(getInboxSource(box.db, box.teamId, 'imap')?.cursor?.lastUid).toBe(6);

    // Nothing new: nothing fetched. A new mail: only it.
    expect((await intake.round('imap'))[0]).toMatchObject({ created: 0, duplicates: 0, skipped: 0 });
    await box.append(
      await composeMail({
        messageId: '<later@shop.example>',
        attachments: [{ filename: 'later.pdf', content: await otherPdf() }],
      }),
    );
    expect((await intake.round('imap'))[0]).toMatchObject({ created: 1 });
    expect(fileNames(box.db, box.teamId)).toEqual(['cafe.pdf', 'later.pdf', 'lunch.png', 'taxi.jpg']);
    box.db.close();
  });

  it('takes nothing twice after a restart, nor when the cursor is lost', { tags: ['slow'] }, async () => {
    const box = await mailbox('Receipts2');
    for (const n of [1, 2, 3]) {
      await box.append(
        await composeMail({
          messageId: `<r${n}@shop.example>`,
          attachments: [{ filename: `r${n}.png`, content: picture('png', `r${n}`) }],
        }),
      );
    }
    expect((await new InboxIntake(box.db, box.dataDir).round('imap'))[0]).toMatchObject({ created: 3 });
    box.db.close();

    // Another process later (the CLI): the cursor says there is nothing new.
    const again = runCli(['inbox', 'fetch', '--data-dir', box.dataDir]);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ kind: 'imap', created: 0, duplicates: 0, error: null });

    // The mailbox set again as another one loses the cursor: every mail is listed again and found in the ledger.
    const db = openDatabase(box.dataDir);
    setImapMailbox(db, box.dataDir, box.teamId, { ...box.config, port: box.config.port });
    db.prepare("UPDATE inbox_sources SET cursor = NULL WHERE kind = 'imap'").run();
    expect((await new InboxIntake(db, box.dataDir).round('imap'))[0]).toMatchObject({ created: 0, duplicates: 3 });
    expect(fileNames(db, box.teamId)).toEqual(['r1.png', 'r2.png', 'r3.png']);
    db.close();
  });

  it('two processes on one data dir take each mail once', { tags: ['slow'] }, async () => {
    const box = await mailbox('Receipts3');
    for (let n = 1; n <= 8; n++) {
      await box.append(
        await composeMail({
          messageId: `<p${n}@shop.example>`,
          attachments: [{ filename: `p${n}.jpg`, content: picture('jpeg', `p${n}`) }],
        }),
      );
    }
    box.db.close();
    const fetch = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(FINOPS_BIN, ['inbox', 'fetch', '--data-dir', box.dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.once('error', reject);
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
      });
    const outputs = await Promise.all([fetch(), fetch()]);
    const outcomes = outputs.map((o) =>
      JSON.parse(
        o
          .trim()
          .split('\n')
          .find((l) => l.includes('"imap"'))!,
      ),
    );
    // One fetched everything; the other found the lease held (busy) or, started later, nothing new.
    expect(outcomes.map((o) => o.created).sort()).toEqual([0, 8]);
    const db = openDatabase(box.dataDir);
    expect(fileNames(db, box.teamId)).toHaveLength(8);
    expect(db.prepare("SELECT count(*) FROM inbox_ingested WHERE key LIKE 'message:%'").pluck().get()).toBe(8);
    db.close();
  });

  it('the server fetches by itself, and keeps a refused login as the source’s error', async () => {
    const box = await mailbox('Receipts4');
    await box.append(
      await composeMail({ messageId: '<s1@shop.example>', attachments: [{ filename: 's1.png', content: picture('png', 's1') }] }),
    );
    const app = await buildApp({ db: box.db, logLevel: 'silent', inboxIntake: { imapPollMs: 100, folderPollMs: 60_000 } });
    await app.ready();
    try {
      const deadline = Date.now() + 15_000;
      while (fileNames(box.db, box.teamId).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(fileNames(box.db, box.teamId)).toEqual(['s1.png']);
      expect(getInboxSource(box.db, box.teamId, 'imap')).toMatchObject({ lastError: null, cursor: { lastUid: 1 } });
    } finally {
      await app.close();
    }
    // (Dovecot slows the next logins from an address after a refused one: this comes last.)
    await box.append(
      await composeMail({ messageId: '<s2@shop.example>', attachments: [{ filename: 's2.png', content: picture('png', 's2') }] }),
    );
    setImapMailbox(box.db, box.dataDir, box.teamId, box.config, 'wrong password');
    const [refused] = await new InboxIntake(box.db, box.dataDir).round('imap');
    expect(refused?.error).toBe(`127.0.0.1:${dovecot.port} refused the login of receipts (Authentication failed.)`);
    expect(getInboxSource(box.db, box.teamId, 'imap')?.lastError).toBe(refused?.error);
    expect(fileNames(box.db, box.teamId)).toEqual(['s1.png']);
    box.db.close();

    // The password is in the data dir's secret file (0600), never in the database.
    const secrets = path.join(box.dataDir, 'secrets', 'inbox.json');
    expect(fs.statSync(secrets).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(secrets, 'utf8'))[box.teamId].imapPassword).toBe('wrong password');
    for (const file of fs.readdirSync(box.dataDir).filter((f) => f.startsWith(DB_FILE_NAME))) {
      expect(fs.readFileSync(path.join(box.dataDir, file)).includes('wrong password')).toBe(false);
    }
  });
});

describe('IMAP mailbox that never answers', () => {
  it('does not hold a stopping server up', async () => {
    // A server that accepts the connection and never greets (a hung mail server).
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    const dataDir = tmpDir('finops-data-');
    const db = openDatabase(dataDir);
    const teamId = ensureTeam(db, 'Acme').id;
    setImapMailbox(db, dataDir, teamId, { host: '127.0.0.1', port, security: 'none', user: 'u', mailbox: 'INBOX' }, 'p');
    const app = await buildApp({ db, logLevel: 'silent', inboxIntake: { imapPollMs: 60_000, imapTimeoutMs: 60_000 } });
    await app.ready();
    try {
      const deadline = Date.now() + 10_000;
      while (sockets.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(sockets.length).toBe(1);
      const started = Date.now();
      await app.close();
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      db.close();
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});
