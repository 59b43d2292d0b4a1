import type { SyncEntity } from '../../../src-shared/domain/sync/fields';
import type { Json, Projection } from '../../../src-shared/domain/sync/merge';
import { toMajor } from '../../../src-shared/money';
import { createBankAccount, deleteBankAccount, updateBankAccount } from '../bank-accounts/bank-accounts';
import { createCategory, deleteCategory, updateCategory } from '../categories/categories';
import { ensureCategoriesOnce } from '../categories/defaults';
import { deleteCustomer, updateCustomer, upsertCustomer } from '../customers/write';
import type { Db } from '../db';
import { createSyncedDocument, deleteSyncedDocument, updateDocument } from '../documents/documents';
import { InvalidReference } from '../errors';
import { deleteInvoice } from '../invoices/write';
import { createNotification, updateNotificationStatus } from '../notifications/notifications';
import { createTag, deleteTag, updateTag } from '../tags/tags';
import { createTrackerEntry, deleteTrackerEntry, updateTrackerEntry } from '../tracker/entries';
import { createTrackerProject, deleteTrackerProject, updateTrackerProject } from '../tracker/projects';
import { attachSyncedFile, detachFromTransaction } from '../transactions/attachments';
import { createTransactions, type NewTransaction } from '../transactions/create';
import { deleteTransactions } from '../transactions/delete';
import type { WriteSource } from '../transactions/field-sources';
import type { NewSplit } from '../transactions/splits';
import { type TransactionChange, updateTransaction } from '../transactions/update';
import type { Writer } from '../write';
import { createInvoiceLocal, findInvoiceTwin, updateInvoiceLocal } from './invoice-writes';
import { remoteIdOf } from './records';

/**
 * Writing sync projections into the local store (docs/decisions/0140-sync-engine.md): each entity's own store
 * functions, so a pulled record goes through the same validation, write path and derived data (balances, review
 * states, roll-ups) as a local edit. Called inside the sync round's write (origin `sync`) — or a person's conflict
 * resolution (origin `local`) — which these functions' own writes join. Field provenance of transactions records
 * the writer's origin: a value pulled from the remote is locked against local rules like a person's edit.
 */

const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);
const has = (f: Record<string, Json>, k: string) => Object.hasOwn(f, k);

function categoryIdOf(db: Db, teamId: string, slug: Json | undefined): string | null {
  if (typeof slug !== 'string') return null;
  const id = db.prepare('SELECT id FROM transaction_categories WHERE team_id = ? AND slug = ?').pluck().get(teamId, slug) as
    | string
    | undefined;
  if (!id) throw new InvalidReference('parentSlug', `no category with the slug ${slug} here`);
  return id;
}

function splitsOf(v: Json | undefined): NewSplit[] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  return (v as Record<string, Json>[]).map((s) => ({
    amountMinor: Number(s.amountMinor),
    categorySlug: str(s.categorySlug),
    taxRate: typeof s.taxRate === 'number' ? s.taxRate : null,
    taxType: str(s.taxType),
    note: str(s.note),
  }));
}

function sourceOf(w: Writer): WriteSource {
  return { source: w.origin === 'sync' ? 'sync' : 'user', respectLocks: false };
}

const tagRefs = (v: Json | undefined) => (Array.isArray(v) ? (v as string[]).map((id) => ({ id })) : undefined);

function customerFields(f: Record<string, Json>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) out[k] = k === 'tags' ? tagRefs(v) : v;
  return out;
}

function projectFields(f: Record<string, Json>, full: Projection): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k === 'rateMinor') {
      const currency = str(full.currency);
      out.rate = typeof v === 'number' && currency ? toMajor(v, currency) : null;
      if (!has(f, 'currency')) out.currency = currency;
    } else if (k === 'tags') out.tags = tagRefs(v);
    else out[k] = v;
  }
  return out;
}

function entryFields(f: Record<string, Json>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) out[k === 'durationSeconds' ? 'duration' : k] = v;
  return out;
}

function transactionChange(f: Record<string, Json>): TransactionChange {
  const c: TransactionChange = {};
  if (has(f, 'name')) c.name = String(f.name);
  if (has(f, 'date')) c.date = String(f.date);
  if (has(f, 'description')) c.description = str(f.description);
  if (has(f, 'counterpartyName')) c.counterpartyName = str(f.counterpartyName);
  if (has(f, 'amountMinor')) c.amountMinor = Number(f.amountMinor);
  if (has(f, 'splits')) c.splits = splitsOf(f.splits);
  if (has(f, 'categorySlug')) c.categorySlug = str(f.categorySlug);
  if (has(f, 'taxRate')) c.taxRate = typeof f.taxRate === 'number' ? f.taxRate : null;
  if (has(f, 'taxType')) c.taxType = str(f.taxType);
  if (has(f, 'status')) c.status = String(f.status);
  if (has(f, 'note')) c.note = str(f.note);
  if (has(f, 'internal')) c.internal = f.internal === true;
  if (has(f, 'recurring')) c.recurring = f.recurring === true;
  if (has(f, 'frequency')) c.frequency = str(f.frequency);
  if (has(f, 'reviewed')) c.reviewed = f.reviewed === true;
  if (has(f, 'tags')) c.tagIds = Array.isArray(f.tags) ? (f.tags as string[]) : [];
  return c;
}

/** Creates a record from a projection (local ids) with the wanted id; returns the id. */
export function createLocal(w: Writer, entity: SyncEntity, id: string, p: Projection): string {
  const { db, teamId } = w;
  const f = p as Record<string, Json>;
  switch (entity) {
    case 'tag':
      return createTag(db, teamId, { id, name: String(f.name) }).id;
    case 'transaction_category':
      return createCategory(db, teamId, {
        id,
        name: String(f.name),
        slug: String(f.slug),
        color: str(f.color) ?? undefined,
        description: str(f.description),
        taxRate: typeof f.taxRate === 'number' ? f.taxRate : null,
        taxType: str(f.taxType) as never,
        taxReportingCode: str(f.taxReportingCode),
        excluded: f.excluded === true,
        parentId: categoryIdOf(db, teamId, f.parentSlug),
      }).id;
    case 'bank_account':
      return createBankAccount(db, teamId, {
        id,
        name: String(f.name),
        currency: String(f.currency),
        type: String(f.type) as never,
        enabled: f.enabled !== false,
        manual: f.manual !== false,
      }).id;
    case 'customer':
      // By its id only: an email is not unique, and a pulled customer is never merged into another one here.
      return upsertCustomer(db, teamId, { id, ...customerFields(f) } as never, new Date(), { byEmail: false }).customer.id;
    case 'invoice':
      return createInvoiceLocal(w, id, f);
    case 'tracker_project':
      return createTrackerProject(db, teamId, { id, ...projectFields(f, p) } as never).id;
    case 'tracker_entry':
      return createTrackerEntry(db, teamId, { id, ...entryFields(f), assignedId: null } as never, null).id;
    case 'transaction':
      return createTransactionsLocal(w, [{ id, projection: p }])[0]!;
    case 'transaction_attachment':
      return attachSyncedFile(
        db,
        teamId,
        String(f.transactionId),
        {
          id,
          sha256: String(f.sha256),
          filename: str(f.fileName),
          size: Number(f.size),
          mimeType: String(f.mimetype),
        },
        sourceOf(w),
      );
    case 'document':
      return createSyncedDocument(db, teamId, {
        id,
        title: String(f.title),
        fileName: String(f.fileName),
        pathTokens: Array.isArray(f.pathTokens) ? (f.pathTokens as string[]) : [String(f.fileName)],
        sha256: String(f.sha256),
        date: str(f.date),
        summary: str(f.summary),
      });
    case 'notification':
      return createNotification(db, teamId, {
        id,
        type: String(f.type),
        priority: Number(f.priority),
        source: f.source === 'user' ? 'user' : 'system',
        metadata: (f.metadata ?? {}) as Record<string, unknown>,
        status: String(f.status) as never,
      }).id;
  }
}

function newTransaction(id: string, f: Record<string, Json>): NewTransaction {
  return {
    id,
    bankAccountId: String(f.bankAccountId),
    name: String(f.name),
    amountMinor: Number(f.amountMinor),
    currency: String(f.currency),
    date: String(f.date),
    manual: f.manual !== false,
    status: String(f.status) as never,
    description: str(f.description),
    counterpartyName: str(f.counterpartyName),
    method: str(f.method) ?? undefined,
    categorySlug: str(f.categorySlug),
    note: str(f.note),
    internal: f.internal === true,
    recurring: f.recurring === true,
    frequency: str(f.frequency),
    tagIds: Array.isArray(f.tags) ? (f.tags as string[]) : [],
    splits: splitsOf(f.splits),
  };
}

/**
 * Creates many pulled transactions in one ledger write (a first round brings thousands a page: the ledger's derived
 * data is kept right once for all of them, as an import does), then the fields a create does not take.
 */
export function createTransactionsLocal(w: Writer, records: readonly { id: string; projection: Projection }[]): string[] {
  const { db, teamId } = w;
  const ids = createTransactions(
    db,
    teamId,
    records.map((r) => newTransaction(r.id, r.projection as Record<string, Json>)),
    sourceOf(w),
  );
  records.forEach((r, i) => {
    const f = r.projection;
    const rest: TransactionChange = {};
    if (typeof f.taxRate === 'number' || typeof f.taxType === 'string') {
      rest.taxRate = typeof f.taxRate === 'number' ? f.taxRate : null;
      rest.taxType = str(f.taxType);
    }
    if (f.reviewed === true) rest.reviewed = true;
    if (Object.keys(rest).length > 0) updateTransaction(db, teamId, ids[i]!, rest, sourceOf(w));
  });
  return ids;
}

/** Sets fields of a record (a partial projection with local ids); `full` is the record after the change. */
export function updateLocal(w: Writer, entity: SyncEntity, id: string, f: Record<string, Json>, full: Projection): void {
  const { db, teamId } = w;
  switch (entity) {
    case 'tag':
      if (has(f, 'name')) updateTag(db, teamId, id, { name: String(f.name) });
      return;
    case 'transaction_category': {
      const patch: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(f)) {
        if (k === 'parentSlug') patch.parentId = categoryIdOf(db, teamId, v);
        else if (k !== 'slug') patch[k] = v;
      }
      updateCategory(db, teamId, id, patch as never);
      return;
    }
    case 'bank_account': {
      const patch: Record<string, unknown> = {};
      for (const k of ['name', 'type', 'enabled']) if (has(f, k)) patch[k] = f[k];
      updateBankAccount(db, teamId, id, patch as never);
      return;
    }
    case 'customer':
      updateCustomer(db, teamId, id, customerFields(f) as never);
      return;
    case 'invoice':
      updateInvoiceLocal(w, id, f, full);
      return;
    case 'tracker_project':
      updateTrackerProject(db, teamId, id, projectFields(f, full) as never);
      return;
    case 'tracker_entry':
      updateTrackerEntry(db, teamId, id, entryFields(f) as never);
      return;
    case 'transaction':
      updateTransaction(db, teamId, id, transactionChange(f), sourceOf(w));
      return;
    case 'transaction_attachment':
      // Never edited: every field is a fact of its create.
      return;
    case 'document': {
      const patch: Record<string, unknown> = {};
      for (const k of ['title', 'date', 'summary']) if (has(f, k)) patch[k] = f[k];
      updateDocument(db, teamId, id, patch);
      return;
    }
    case 'notification':
      if (has(f, 'status')) updateNotificationStatus(db, teamId, undefined, id, String(f.status) as never);
      return;
  }
}

export function deleteLocal(w: Writer, entity: SyncEntity, id: string): void {
  const { db, teamId } = w;
  switch (entity) {
    case 'tag':
      deleteTag(db, teamId, id);
      return;
    case 'transaction_category':
      deleteCategory(db, teamId, id);
      return;
    case 'bank_account':
      deleteBankAccount(db, teamId, id);
      return;
    case 'customer':
      deleteCustomer(db, teamId, id);
      return;
    case 'invoice':
      deleteInvoice(db, teamId, id);
      return;
    case 'tracker_project':
      deleteTrackerProject(db, teamId, id);
      return;
    case 'tracker_entry':
      deleteTrackerEntry(db, teamId, id);
      return;
    case 'transaction':
      deleteTransactions(db, teamId, [id], sourceOf(w));
      return;
    case 'transaction_attachment': {
      const transactionId = db
        .prepare('SELECT transaction_id FROM transaction_attachments WHERE team_id = ? AND id = ?')
        .pluck()
        .get(teamId, id) as string | undefined;
      // Its file loses this holder; the background sweep removes it once nothing holds it.
      if (transactionId) detachFromTransaction(db, teamId, transactionId, id);
      return;
    }
    case 'document':
      deleteSyncedDocument(db, teamId, id);
      return;
    case 'notification':
      // Notifications are never deleted by a remote: each side keeps its own history.
      return;
  }
}

/**
 * The local record with the same unique natural key (tag name, category slug; an invoice's number with the same
 * content), if one exists. Keys that are not unique (a customer's email, decision 0021) never match: two records
 * that share one are two records.
 */
export function findLocalByNaturalKey(db: Db, teamId: string, entity: SyncEntity, p: Projection): string | undefined {
  const one = (sql: string, value: Json | undefined) =>
    typeof value === 'string' && value !== '' ? (db.prepare(sql).pluck().get(teamId, value) as string | undefined) : undefined;
  switch (entity) {
    case 'tag':
      return one('SELECT id FROM tags WHERE team_id = ? AND name = ? COLLATE NOCASE', p.name);
    case 'transaction_category':
      // The default taxonomy is made with a team's first account: make it now, so a pulled default category is
      // matched with its twin here instead of colliding with it later.
      ensureCategoriesOnce(db, teamId);
      return one('SELECT id FROM transaction_categories WHERE team_id = ? AND slug = ?', p.slug);
    case 'invoice':
      return findInvoiceTwin(db, teamId, p);
    default:
      return undefined;
  }
}

/**
 * Whether a local record may be created on the remote. Some only flow down: accounts of a bank connection (and
 * the transactions of such an account the remote does not know), and a running timer's entry until it stops.
 */
export function pushableRecord(db: Db, teamId: string, remoteId: string, entity: SyncEntity, p: Projection): boolean {
  switch (entity) {
    case 'bank_account':
      return p.manual !== false;
    case 'transaction': {
      if (typeof p.bankAccountId !== 'string') return false;
      if (remoteIdOf(db, remoteId, 'bank_account', p.bankAccountId) !== undefined) return true;
      const manual = db
        .prepare('SELECT manual FROM bank_accounts WHERE team_id = ? AND id = ?')
        .pluck()
        .get(teamId, p.bankAccountId) as number | undefined;
      return manual === 1;
    }
    case 'tracker_entry':
      return p.stop !== null;
    case 'transaction_attachment': {
      // Goes where its transaction goes.
      const tx = db
        .prepare('SELECT bank_account_id FROM transactions WHERE team_id = ? AND id = ?')
        .pluck()
        .get(teamId, p.transactionId) as string | undefined;
      return (
        tx !== undefined &&
        (remoteIdOf(db, remoteId, 'transaction', String(p.transactionId)) !== undefined ||
          pushableRecord(db, teamId, remoteId, 'transaction', { bankAccountId: tx }))
      );
    }
    default:
      return true;
  }
}

/** The slugs of the team's categories (a pull fetches categories it refers to and does not have). */
export function localCategorySlugs(db: Db, teamId: string): Set<string> {
  return new Set(db.prepare('SELECT slug FROM transaction_categories WHERE team_id = ?').pluck().all(teamId) as string[]);
}
