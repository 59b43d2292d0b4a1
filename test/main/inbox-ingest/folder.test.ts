/**
 * The watched folder over the real app and a real data dir: receipts dropped into a real folder become inbox items
 * and are extracted like uploads; what is not a receipt is skipped with its reason; a file is taken once per
 * content, also after the server restarts (the ledger in the database, not the process's memory, decides).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AppOptions, buildApp } from '../../../src-main/server/app';
import { createApiKey } from '../../../src-main/store/auth/api-keys';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import type { InboxItem } from '../../../src-shared/contract/inbox';
import { documentsSettled } from '../../helpers/documents';
import { cafePdf, picture } from '../../helpers/mail';
import { tmpDir } from '../../helpers/tmp';

const FAST = { folderPollMs: 100, imapPollMs: 60_000, settleMs: 50 };

/** A server over a data dir (the same dir again for a restart), with an owner's key. */
async function server(dataDir: string, options: Partial<AppOptions> = {}) {
  const db = openDatabase(dataDir);
  const app = await buildApp({ db, logLevel: 'silent', validateResponses: true, inboxIntake: FAST, ...options });
  await app.ready();
  const teamId = ensureTeam(db, 'Acme').id;
  const token = createApiKey(db, { teamId, name: 'owner', scopes: ['apis.all'] }).key;
  const callAs = (key: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) => callAs(token, method, url, body);
  const items = async () => (await call('GET', '/v1/inbox?pageSize=100')).json().data as InboxItem[];
  return {
    db,
    call,
    callAs,
    items,
    async close() {
      await app.close();
      db.close();
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() - start > ms) throw new Error(`${what}: not reached in ${ms} ms (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Writes a file the way a scanner app or a browser does: a partial name first, renamed when complete. */
function drop(dir: string, name: string, bytes: Buffer): void {
  fs.writeFileSync(path.join(dir, `${name}.part`), bytes);
  fs.renameSync(path.join(dir, `${name}.part`), path.join(dir, name));
}

describe('watched folder', () => {
  it('turns each receipt dropped there into an inbox item, extracted like an upload; other files are skipped', async () => {
    const folder = tmpDir('finops-watched-');
    // No polling to speak of: the folder's change events (fs.watch) bring the files in.
    const s = await server(tmpDir('finops-data-'), { inboxIntake: { ...FAST, folderPollMs: 600_000 } });
    try {
      const set = await s.call('PUT', '/app/inbox-sources/folder', { path: folder });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().folder.path).toBe(folder);

      const pdf = await cafePdf();
      drop(folder, 'cafe.pdf', pdf);
      drop(folder, 'lunch.png', picture('png', 'lunch'));
      drop(folder, 'taxi.jpg', picture('jpeg', 'taxi'));
      fs.writeFileSync(path.join(folder, 'notes.txt'), 'not a receipt');
      fs.writeFileSync(path.join(folder, '.hidden.pdf'), pdf);
      fs.writeFileSync(path.join(folder, 'half.pdf.part'), pdf.subarray(0, 100));

      const items = await until('three items', s.items, (l) => l.length >= 3);
      expect(items.map((i) => i.fileName).sort()).toEqual(['cafe.pdf', 'lunch.png', 'taxi.jpg']);
      expect(items.find((i) => i.fileName === 'taxi.jpg')?.contentType).toBe('image/jpeg');

      await documentsSettled(s.db);
      const cafe = (await s.items()).find((i) => i.fileName === 'cafe.pdf')!;
      expect(cafe).toMatchObject({ amount: 23.4, currency: 'EUR', date: '2025-03-14' });

      const view = await until(
        'the text file skipped',
        async () => (await s.call('GET', '/app/inbox-sources')).json(),
        (v) => v.recent.some((r: { outcome: string }) => r.outcome === 'skipped'),
      );
      expect(view.recent.find((r: { outcome: string }) => r.outcome === 'skipped').detail).toMatch(
        /^notes\.txt: .*PDF, PNG, JPEG/,
      );
      expect(view.folder).toMatchObject({ path: folder, lastError: null });
      expect(view.folder.lastRunAt).not.toBeNull();

      // The same receipt again under another name is the same receipt; the partial and hidden files stay ignored.
      drop(folder, 'cafe copy.pdf', pdf);
      await new Promise((r) => setTimeout(r, 600));
      expect((await s.items()).length).toBe(3);
    } finally {
      await s.close();
    }
  });

  it('takes each file once across a restart, and never brings back an item that was deleted', async () => {
    const folder = tmpDir('finops-watched-');
    const dataDir = tmpDir('finops-data-');
    drop(folder, 'a.png', picture('png', 'a'));
    drop(folder, 'b.jpg', picture('jpeg', 'b'));

    const first = await server(dataDir, { documents: { runner: false } });
    let deleted: string;
    try {
      await first.call('PUT', '/app/inbox-sources/folder', { path: folder });
      const items = await until('two items', first.items, (l) => l.length === 2);
      deleted = items.find((i) => i.fileName === 'a.png')!.id;
      expect((await first.call('DELETE', `/v1/inbox/${deleted}`)).statusCode).toBe(200);
    } finally {
      await first.close();
    }

    const second = await server(dataDir, { documents: { runner: false } });
    try {
      drop(folder, 'c.png', picture('png', 'c'));
      const items = await until('the new file', second.items, (l) => l.some((i) => i.fileName === 'c.png'));
      await new Promise((r) => setTimeout(r, 400)); // more looks: nothing else may come
      expect((await second.items()).map((i) => i.fileName).sort()).toEqual(['b.jpg', 'c.png']);
      expect(items.some((i) => i.id === deleted)).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('refuses a path that is not a readable folder, and only an owner may set it (members may see it)', async () => {
    const s = await server(tmpDir('finops-data-'));
    try {
      const relative = await s.call('PUT', '/app/inbox-sources/folder', { path: 'receipts' });
      expect(relative.statusCode).toBe(422);
      expect(relative.json().message).toMatch(/absolute path/);
      const missing = await s.call('PUT', '/app/inbox-sources/folder', { path: '/nonexistent/receipts' });
      expect(missing.statusCode).toBe(422);
      const file = path.join(tmpDir(), 'file.txt');
      fs.writeFileSync(file, 'x');
      expect((await s.call('PUT', '/app/inbox-sources/folder', { path: file })).json().message).toMatch(/not a folder/);

      const member = createApiKey(s.db, {
        teamId: ensureTeam(s.db, 'Acme').id,
        name: 'm',
        scopes: ['inbox.read', 'inbox.write'],
      });
      const refused = await s.callAs(member.key, 'PUT', '/app/inbox-sources/folder', { path: tmpDir() });
      expect(refused.statusCode).toBe(403);
      expect((await s.callAs(member.key, 'GET', '/app/inbox-sources')).statusCode).toBe(200); // members see it
      expect((await s.call('DELETE', '/app/inbox-sources/folder')).statusCode).toBe(404); // nothing to turn off
      expect((await s.call('GET', '/app/inbox-sources')).json().folder).toBeNull();
    } finally {
      await s.close();
    }
  });
});
