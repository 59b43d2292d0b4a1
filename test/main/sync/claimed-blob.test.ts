/**
 * A remote cannot claim a file by its hash (docs/decisions/0151): a pulled document whose sha256 is already stored on
 * this server (another team's file) is still downloaded from the remote and checked before it is linked.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { remoteReplica, replica, syncOnce } from './helpers';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SECRET = Buffer.concat([PNG, Buffer.from('team A’s private receipt')]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('pulled documents', () => {
  it("are downloaded and verified even when their sha256 is stored here: the remote cannot claim another team's file", async () => {
    const local = await replica('Globex');
    // Team A of the same server holds the private file.
    const aToken = local.api.key('Acme');
    const aDoc = await local.api.call('POST', '/v1/documents', {
      token: aToken,
      body: { fileName: 'private.png', content: SECRET.toString('base64') },
    });
    expect(aDoc.statusCode, aDoc.body).toBe(201);

    // A hostile remote claims a document with that hash (it holds other bytes, or none).
    const remote = await remoteReplica('Globex');
    const made = await remote.call('POST', '/v1/documents', { fileName: 'mine.png', content: PNG.toString('base64') });
    expect(made.status).toBe(201);
    remote.api.db.pragma('foreign_keys = OFF');
    remote.api.db.prepare('UPDATE documents SET sha256 = ? WHERE id = ?').run(sha(SECRET), made.body.id);
    remote.api.db.pragma('foreign_keys = ON');

    await syncOnce(local, remote).catch(() => undefined);
    const docs = (await local.call('GET', '/v1/documents?pageSize=100')).body.data as { id: string }[];
    for (const d of docs) {
      const file = await local.api.call('GET', `/v1/documents/${d.id}/download`, { token: local.token });
      expect(sha(file.rawPayload)).not.toBe(sha(SECRET));
    }
    expect(docs).toEqual([]);
  });
});
