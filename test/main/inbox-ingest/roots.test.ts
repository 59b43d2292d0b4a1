import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configureOperator, resetOperator } from '../../../src-main/operator/settings';
import { setInboxSource } from '../../../src-main/store/inbox/sources';
import { makeTestApi } from '../../helpers/api';
import { cafePdf } from '../../helpers/mail';
import { tmpDir } from '../../helpers/tmp';

/**
 * Watched folders are the operator's to allow (docs/decisions/0176): only under the roots named at start, never in
 * the data dir. Team B cannot point its folder at the shard holding team A's document — neither directly, nor
 * through a link under a root, nor by a path stored before — and a folder like /etc is refused.
 */
afterEach(() => resetOperator());

async function twoTeams() {
  const root = tmpDir('finops-inbox-root-');
  configureOperator({ inboxRoots: [root] });
  const api = await makeTestApi({ documents: { runner: false } });
  const a = api.key('Acme');
  const b = api.key('Globex');
  const pdf = await cafePdf();
  const doc = await api.call('POST', '/v1/documents', { token: a, body: { fileName: 'a.pdf', content: pdf.toString('base64') } });
  expect(doc.statusCode, doc.body).toBe(201);
  const filesDir = path.join(api.dataDir, 'files');
  const shard = path.join(filesDir, fs.readdirSync(filesDir).find((d) => /^[0-9a-f]{2}$/.test(d))!);
  return { api, a, b, root, shard, filesDir };
}

describe('watched folders and the operator', () => {
  it("refuses team B's folder on team A's blob shard, on the data dir, on a link into it, and /etc", async () => {
    const { api, b, root, shard, filesDir } = await twoTeams();
    for (const p of [shard, filesDir, api.dataDir, '/etc']) {
      const res = await api.call('PUT', '/app/inbox-sources/folder', { token: b, body: { path: p } });
      expect(res.statusCode, `${p}: ${res.body}`).toBe(422);
    }
    const link = path.join(root, 'sneaky');
    fs.symlinkSync(shard, link);
    const viaLink = await api.call('PUT', '/app/inbox-sources/folder', { token: b, body: { path: link } });
    expect(viaLink.statusCode).toBe(422);
    expect(viaLink.json().message).toMatch(/data folder/);
    const etc = await api.call('PUT', '/app/inbox-sources/folder', { token: b, body: { path: '/etc' } });
    expect(etc.json().message).toMatch(/not under a folder this server's operator allows/);
    // Under the root: fine.
    const own = path.join(root, 'globex');
    fs.mkdirSync(own);
    expect((await api.call('PUT', '/app/inbox-sources/folder', { token: b, body: { path: own } })).statusCode).toBe(200);
  });

  it('a folder stored before (or set by hand) on the shard is not read: team B gets none of team A’s files', async () => {
    const { api, b, shard } = await twoTeams();
    setInboxSource(api.db, api.team('Globex').id, 'folder', { path: shard });
    const fetched = await api.call('POST', '/app/inbox-sources/fetch', { token: b });
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.json().data.find((o: { kind: string }) => o.kind === 'folder')).toMatchObject({
      created: 0,
      error: expect.stringMatching(/data folder/),
    });
    expect((await api.call('GET', '/v1/inbox', { token: b })).json().data).toEqual([]);
    const view = (await api.call('GET', '/app/inbox-sources', { token: b })).json();
    expect(view.recent).toEqual([]);
  });

  it('watches no folder at all when the operator named no root', async () => {
    configureOperator({ inboxRoots: [] });
    const api = await makeTestApi();
    const token = api.key('Acme');
    const res = await api.call('PUT', '/app/inbox-sources/folder', { token, body: { path: tmpDir() } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/finops serve --inbox-root/);
  });
});
