/**
 * Undo of review actions. Before an action changes rows, what it changes is recorded per row; undoing sends the
 * old values back, grouped so that rows with the same old value go in one bulk request (at most 1000 ids each).
 * Pure: the screen turns the groups into API calls.
 */
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';

export type UndoField = 'category' | 'reviewed' | 'status' | 'note' | 'tags';

export interface UndoEntry {
  label: string;
  field: UndoField;
  /** Each row's value before the action, as the PATCH body field takes it. */
  before: { id: string; value: unknown }[];
}

/** What a row held for a field, in the form a PATCH of that field sends back. */
export function fieldValue(row: ReviewRow, field: UndoField): unknown {
  switch (field) {
    case 'category':
      return row.category?.slug ?? null;
    case 'reviewed':
      return row.reviewed;
    case 'status':
      return row.status;
    case 'note':
      return row.note;
    case 'tags':
      return row.tags.map((t) => t.id).sort();
  }
}

export function recordUndo(label: string, field: UndoField, rows: readonly ReviewRow[]): UndoEntry {
  return { label, field, before: rows.map((r) => ({ id: r.id, value: fieldValue(r, field) })) };
}

/** The PATCH body field an undo group sets. */
const BODY_FIELD: Record<UndoField, string> = {
  category: 'categorySlug',
  reviewed: 'reviewed',
  status: 'status',
  note: 'note',
  tags: 'tags',
};

export interface RevertCall {
  ids: string[];
  /** The body fields besides `ids` (bulk) or the whole body (tags: one PATCH per row, the bulk route only adds tags). */
  body: Record<string, unknown>;
  perRow: boolean;
}

export const MAX_BULK = 1000;

export function revertCalls(entry: UndoEntry): RevertCall[] {
  const groups = new Map<string, { value: unknown; ids: string[] }>();
  for (const b of entry.before) {
    const key = JSON.stringify(b.value);
    const g = groups.get(key) ?? { value: b.value, ids: [] };
    g.ids.push(b.id);
    groups.set(key, g);
  }
  const calls: RevertCall[] = [];
  for (const g of groups.values()) {
    if (entry.field === 'tags') {
      const tags = (g.value as string[]).map((id) => ({ id }));
      calls.push({ ids: g.ids, body: { tags }, perRow: true });
      continue;
    }
    for (let i = 0; i < g.ids.length; i += MAX_BULK) {
      calls.push({ ids: g.ids.slice(i, i + MAX_BULK), body: { [BODY_FIELD[entry.field]]: g.value }, perRow: false });
    }
  }
  return calls;
}
