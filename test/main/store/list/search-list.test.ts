/**
 * The shared list of searchable resources (src-main/store/list/search-list.ts), through its two users: keyset pages
 * walk a sorted list without repeats or gaps, a cursor is bound to its list's filters, the resource's own filter and
 * default status condition apply, and another team sees nothing.
 */
import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { blobStore } from '../../../../src-main/infra/blob-store';
import { openDatabase } from '../../../../src-main/store/db';
import { createDocument, listDocuments } from '../../../../src-main/store/documents/documents';
import { InvalidReference } from '../../../../src-main/store/errors';
import { listInbox } from '../../../../src-main/store/inbox/items';
import { createInboxItem, updateInboxItem } from '../../../../src-main/store/inbox/writes';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import { DocumentListQuery } from '../../../../src-shared/contract/documents';
import { InboxListQuery } from '../../../../src-shared/contract/inbox';
import { tmpDir } from '../../../helpers/tmp';

const dir = tmpDir('finops-search-list-');
const db = openDatabase(dir);
const blobs = blobStore(dir);
afterAll(() => db.close());

function file(name: string) {
  const bytes = Buffer.from(`%PDF-1.4 ${name}`);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  return { bytes, sha256, size: bytes.length, mimetype: 'application/pdf', fileName: `${name}.pdf` };
}

/** The lists as the routes call them: with the query their contract parsed. */
const documents = (teamId: string, q: Record<string, unknown>) => listDocuments(db, teamId, DocumentListQuery.parse(q));
const inbox = (teamId: string, q: Record<string, unknown>) => listInbox(db, teamId, InboxListQuery.parse(q));

describe('search lists', () => {
  const team = ensureTeam(db, 'Lists').id;
  const titles = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
  const docs = titles.map((t, i) => createDocument(db, team, file(t), { title: t, folder: i % 2 ? 'a/b' : 'c' }, blobs));

  it('walks a sorted list page by page, each row once, and knows where it is', () => {
    const query = { sort: ['title', 'asc'], pageSize: 2 };
    const seen: string[] = [];
    const metas = [];
    let cursor: string | undefined;
    do {
      const page = documents(team, { ...query, cursor });
      seen.push(...page.data.map((d) => d.title));
      metas.push(page.meta);
      cursor = page.meta.cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...titles].sort());
    expect(metas.map((m) => [m.hasPreviousPage, m.hasNextPage])).toEqual([
      [false, true],
      [true, true],
      [true, false],
    ]);
  });

  it('refuses a cursor sent with other filters', () => {
    const first = documents(team, { sort: ['title', 'asc'], pageSize: 2 });
    expect(first.meta.cursor).not.toBeNull();
    expect(() => documents(team, { sort: ['title', 'asc'], folder: 'c', pageSize: 2, cursor: first.meta.cursor })).toThrow(
      InvalidReference,
    );
  });

  it("applies the resource's own filter, the search and the default order (newest first)", () => {
    const inFolder = documents(team, { folder: 'a/b', pageSize: 50 }).data.map((d) => d.title);
    expect(inFolder.sort()).toEqual(['alpha', 'charlie']);
    expect(documents(team, { q: 'ech', pageSize: 50 }).data.map((d) => d.id)).toEqual([docs[2]!.id]);
    const all = documents(team, { pageSize: 50 }).data;
    expect(all.map((d) => d.createdAt)).toEqual(
      all
        .map((d) => d.createdAt)
        .sort()
        .reverse(),
    );
  });

  it('leaves deleted inbox items out unless their status is asked for', () => {
    const kept = createInboxItem(db, team, file('kept receipt'), {}, blobs);
    const gone = createInboxItem(db, team, file('gone receipt'), {}, blobs);
    updateInboxItem(db, team, gone.id, { status: 'deleted' });
    expect(inbox(team, { pageSize: 50 }).data.map((i) => i.id)).toEqual([kept.id]);
    expect(inbox(team, { status: ['deleted'], pageSize: 50 }).data.map((i) => i.id)).toEqual([gone.id]);
  });

  it('shows another team nothing', () => {
    const other = ensureTeam(db, 'Other').id;
    expect(documents(other, { pageSize: 50 }).data).toEqual([]);
    expect(inbox(other, { status: ['deleted'], pageSize: 50 }).data).toEqual([]);
  });
});
