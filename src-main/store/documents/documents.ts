import type {
  Document,
  DocumentDetail,
  DocumentListQuery,
  DocumentPatch,
  ExtractedFields,
} from '../../../src-shared/contract/documents';
import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import {
  addFileRef,
  type BlobStore,
  dropFileRef,
  putStoredFile,
  type StoredFile,
  storedFile,
  withBlobCleanup,
} from '../files/stored-files';
import { type ListPage, type SearchListSpec, searchList } from '../list/search-list';
import { write } from '../write';

/**
 * Documents of a team (the hosted "vault"): a title and folder over a stored file, with what local extraction found
 * (docs/decisions/0082-document-storage.md, 0083-document-extraction.md). Extraction runs once per content; its
 * result is copied onto every document holding that content (`applyExtractionToDocuments`).
 */

interface Row {
  id: string;
  title: string;
  file_name: string;
  path_tokens: string;
  sha256: string;
  size: number;
  mimetype: string;
  processing_status: Document['processingStatus'];
  summary: string | null;
  date: string | null;
  content: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
}

export const MAX_CONTENT_CHARS = 100_000;

function toDocument(r: Row): Document {
  const extracted = JSON.parse(r.metadata) as Partial<ExtractedFields>;
  return {
    id: r.id,
    title: r.title,
    fileName: r.file_name,
    pathTokens: JSON.parse(r.path_tokens) as string[],
    metadata: { size: r.size, mimetype: r.mimetype, sha256: r.sha256 },
    processingStatus: r.processing_status,
    summary: r.summary,
    date: r.date,
    extracted: extracted.method ? (extracted as ExtractedFields) : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function row(db: Db, teamId: string, id: string): Row {
  const r = db.prepare('SELECT * FROM documents WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
  if (!r) throw new NotFound('document', id);
  return r;
}

export function getDocument(db: Db, teamId: string, id: string): DocumentDetail {
  const r = row(db, teamId, id);
  return { ...toDocument(r), content: r.content };
}

/** The stored file behind a document, for downloads. */
export function documentFile(db: Db, teamId: string, id: string): { sha256: string; mimetype: string; fileName: string } {
  const r = row(db, teamId, id);
  return { sha256: r.sha256, mimetype: r.mimetype, fileName: r.file_name };
}

const LIST: SearchListSpec<Row, Document> = {
  name: 'documents',
  table: 'documents d',
  alias: 'd',
  fts: 'documents_fts',
  sorts: {
    created_at: { sql: 'd.created_at', kind: 'text' },
    title: { sql: 'lower(d.title)', kind: 'text' },
    date: { sql: "coalesce(d.date, '')", kind: 'text' },
    size: { sql: 'd.size', kind: 'number' },
  },
  status: { column: 'processing_status' },
  select: 'SELECT d.* FROM documents d',
  toItem: toDocument,
};

export function listDocuments(db: Db, teamId: string, query: DocumentListQuery): ListPage<Document> {
  const folder = folderTokens(query.folder);
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (folder.length > 0) {
    // The folder's segments are the first entries of path_tokens (the last one is the file name).
    where.push(
      `json_array_length(d.path_tokens) > @depth AND ${folder.map((_, i) => `d.path_tokens ->> ${i} = @f${i}`).join(' AND ')}`,
    );
    params.depth = folder.length;
    folder.forEach((f, i) => {
      params[`f${i}`] = f;
    });
  }
  return searchList(db, teamId, LIST, { ...query, statuses: query.processingStatus }, { where, params, fingerprint: [folder] });
}

export function folderTokens(folder: string | undefined): string[] {
  return (folder ?? '')
    .split('/')
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && s !== '.' && s !== '..');
}

// ---------------------------------------------------------------------------------------------------------------
// Extraction results.

/** What extraction stored (src-main/documents: strings for amounts) as the API's fields. */
export function extractedFieldsOf(file: StoredFile): ExtractedFields | null {
  if (file.extraction_status !== 'completed' || !file.extracted_fields) return null;
  const f = JSON.parse(file.extracted_fields) as Record<string, string | number | null>;
  const n = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
  return {
    merchant: (f.merchant as string | null) ?? null,
    date: (f.date as string | null) ?? null,
    amount: n(f.amount),
    currency: (f.currency as string | null) ?? null,
    vatAmount: n(f.vatAmount),
    vatRate: n(f.vatRate),
    website: (f.website as string | null) ?? null,
    method: file.extraction_method as ExtractedFields['method'],
    eInvoice: (f.eInvoice as unknown as ExtractedFields['eInvoice']) ?? null,
  };
}

function summaryOf(fields: ExtractedFields | null, text: string | null): string | null {
  if (fields && (fields.merchant || fields.amount !== null)) {
    const parts = [fields.merchant, fields.date];
    if (fields.amount !== null) {
      const vat = fields.vatAmount !== null ? ` (VAT ${fields.vatAmount.toFixed(2)})` : '';
      parts.push(`${fields.currency ?? ''} ${fields.amount.toFixed(2)}${vat}`.trim());
    }
    return parts.filter(Boolean).join(' · ');
  }
  const flat = text?.replace(/\s+/g, ' ').trim();
  return flat ? flat.slice(0, 200) : null;
}

/** The columns a document takes from its file's extraction state. */
function extractionValues(file: StoredFile, current?: Pick<Row, 'date' | 'summary'>): Record<string, string | null> {
  // A failed extraction says why where the document is shown (a summary a person set is kept).
  if (file.extraction_status === 'failed') {
    return {
      processing_status: 'failed',
      summary: current?.summary ?? (file.extraction_error ? `Not read: ${file.extraction_error}`.slice(0, 300) : null),
    };
  }
  if (file.extraction_status !== 'completed') return { processing_status: file.extraction_status };
  const fields = extractedFieldsOf(file);
  return {
    processing_status: 'completed',
    content: file.extracted_text ? file.extracted_text.slice(0, MAX_CONTENT_CHARS) : null,
    metadata: JSON.stringify(fields ?? {}),
    // A date or summary a person set is kept.
    date: current?.date ?? fields?.date ?? null,
    summary: current?.summary ?? summaryOf(fields, file.extracted_text),
  };
}

/** Copies the file's extraction state onto every document holding it, team by team (one write each). */
export function applyExtractionToDocuments(db: Db, sha: string): number {
  const file = storedFile(db, sha);
  if (!file) return 0;
  const docs = db.prepare('SELECT id, team_id, date, summary FROM documents WHERE sha256 = ?').all(sha) as {
    id: string;
    team_id: string;
    date: string | null;
    summary: string | null;
  }[];
  const byTeam = new Map<string, typeof docs>();
  for (const d of docs) byTeam.set(d.team_id, [...(byTeam.get(d.team_id) ?? []), d]);
  for (const [teamId, list] of byTeam) {
    write(
      db,
      teamId,
      (w) => {
        for (const d of list) w.update('document', d.id, extractionValues(file, d));
      },
      { origin: 'system' },
    );
  }
  return docs.length;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

export interface NewFile {
  bytes: Uint8Array;
  sha256: string;
  size: number;
  mimetype: string;
  fileName: string;
}

export function createDocument(
  db: Db,
  teamId: string,
  file: NewFile,
  input: { title?: string; folder?: string; id?: string },
  blobs: BlobStore,
): Document {
  const id = write(db, teamId, (w) => {
    const stored = putStoredFile(db, file, file.bytes, blobs, w.now);
    const docId = w.insert('document', {
      id: input.id,
      title: input.title ?? file.fileName,
      file_name: file.fileName,
      path_tokens: JSON.stringify([...folderTokens(input.folder), file.fileName]),
      sha256: file.sha256,
      size: file.size,
      mimetype: file.mimetype,
      ...extractionValues(stored),
    });
    addFileRef(db, teamId, file.sha256, 'document', docId, w.now);
    return docId;
  });
  return toDocument(row(db, teamId, id));
}

/** What a sync pull knows of a document (docs/decisions/0151-document-sync.md). */
export interface SyncedDocument {
  id: string;
  title: string;
  fileName: string;
  pathTokens: string[];
  sha256: string;
  date: string | null;
  summary: string | null;
}

/**
 * A pulled document over content already stored here: the round fetched its file before this write, so a replica
 * never lists a document without its bytes. Content that is not stored is refused (the round tries again).
 */
export function createSyncedDocument(db: Db, teamId: string, doc: SyncedDocument): string {
  return write(db, teamId, (w) => {
    const stored = storedFile(db, doc.sha256);
    if (!stored) throw new InvalidReference('sha256', `the file ${doc.sha256} is not stored here yet`);
    const docId = w.insert('document', {
      id: doc.id,
      title: doc.title,
      file_name: doc.fileName,
      path_tokens: JSON.stringify(doc.pathTokens),
      sha256: doc.sha256,
      size: stored.size,
      mimetype: stored.mimetype,
      date: doc.date,
      summary: doc.summary,
      ...extractionValues(stored, { date: doc.date, summary: doc.summary }),
    });
    addFileRef(db, teamId, doc.sha256, 'document', docId, w.now);
    return docId;
  });
}

/**
 * Removes a document deleted on the sync remote. Its file loses this reference; the blob itself goes with the
 * background sweep of unreferenced files (the store holds no file system).
 */
export function deleteSyncedDocument(db: Db, teamId: string, id: string): void {
  write(db, teamId, (w) => {
    const r = row(db, teamId, id);
    w.remove('document', id);
    db.prepare("DELETE FROM stored_file_refs WHERE owner_entity = 'document' AND owner_id = ? AND sha256 = ?").run(id, r.sha256);
  });
}

export function updateDocument(db: Db, teamId: string, id: string, patch: DocumentPatch): Document {
  write(db, teamId, (w) => {
    row(db, teamId, id);
    w.update('document', id, { title: patch.title, date: patch.date, summary: patch.summary });
  });
  return toDocument(row(db, teamId, id));
}

export function deleteDocument(db: Db, teamId: string, id: string, blobs: BlobStore): Document {
  return withBlobCleanup(blobs, (trashed) =>
    write(db, teamId, (w) => {
      const r = row(db, teamId, id);
      w.remove('document', id);
      dropFileRef(db, r.sha256, 'document', id, blobs, trashed);
      return toDocument(r);
    }),
  );
}
