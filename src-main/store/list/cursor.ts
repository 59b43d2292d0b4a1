import crypto from 'node:crypto';
import { InvalidReference } from '../errors';

/**
 * Opaque keyset cursors. A cursor carries the sort key and id of the last row of a page, and a fingerprint of the
 * list it belongs to (team, sort, search and filters): a cursor sent with another query, or to another team, is
 * refused with a clear message instead of silently paging something else.
 */
export type SortKind = 'text' | 'number';
export type SortKey = string | number;

interface CursorPayload {
  v: 1;
  f: string;
  k: SortKey;
  i: string;
}

/** A short hash of everything that defines a list (arrays should be sorted by the caller when order is irrelevant). */
export function listFingerprint(parts: readonly unknown[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

export function encodeCursor(fingerprint: string, key: SortKey, id: string): string {
  const payload: CursorPayload = { v: 1, f: fingerprint, k: key, i: id };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeCursor(text: string, fingerprint: string, kind: SortKind): { key: SortKey; id: string } {
  const invalid = (why: string) => new InvalidReference('cursor', `Invalid cursor: ${why}`);
  let p: Partial<CursorPayload>;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error();
    p = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not a cursor returned by this list');
  }
  if (!p || typeof p !== 'object' || p.v !== 1 || typeof p.f !== 'string' || typeof p.i !== 'string') {
    throw invalid('not a cursor returned by this list');
  }
  if (p.f !== fingerprint)
    throw invalid('it belongs to a list with another sort, search or filters; start again without a cursor');
  if (kind === 'text' ? typeof p.k !== 'string' : typeof p.k !== 'number' || !Number.isFinite(p.k)) {
    throw invalid('not a cursor returned by this list');
  }
  return { key: p.k as SortKey, id: p.i };
}
