import type { InvoiceCreate, InvoicePatch } from '../../../src-shared/contract/invoices';
import { codedRule } from '../../../src-shared/domain/sync/conflict-rules';
import { apiLineItems, sameInvoice } from '../../../src-shared/domain/sync/invoices';
import type { Json, Projection } from '../../../src-shared/domain/sync/merge';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { requireInvoiceRow } from '../invoices/read';
import { assertNumberFree, NO_NUMBER } from '../invoices/settings';
import { createInvoice, updateInvoice } from '../invoices/write';
import type { Writer } from '../write';
import { recordConflict } from './conflicts';
import { readProjection } from './projections';
import { teamRemote } from './remotes';

/**
 * Invoice projections written into the local store (docs/decisions/0143-invoice-sync.md), through the invoice
 * store's own create and update, so a pulled invoice is checked, totalled and moved through the lifecycle like a
 * local one. Pulled changes never queue an email: status moves here issue, pay or cancel; only the send route and
 * the scheduler of the store that numbers invoices queue emails.
 */

type Fields = Record<string, Json>;

/** This copy follows the remote's: its lifecycle reached move by move, its content taken whatever its state. */
const FOLLOW = { throughLifecycle: true, followRemote: true } as const;

/** The content fields of a projection as the invoice store takes them (money in major units of the currency). */
function contentOf(f: Fields, currency: string): Partial<InvoicePatch> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k === 'invoiceNumber' || k === 'status' || k === 'scheduledAt') continue;
    if (k === 'lineItems') out.lineItems = apiLineItems(v, currency);
    else if (k === 'discountMinor') out.discount = typeof v === 'number' ? toMajor(v, currency) : 0;
    else if (k === 'timezone' && v === null) continue;
    else out[k] = v;
  }
  return out as Partial<InvoicePatch>;
}

function lifecycleOf(f: Fields): Partial<InvoicePatch> {
  if (typeof f.status !== 'string') return {};
  return {
    status: f.status as InvoicePatch['status'],
    ...(typeof f.scheduledAt === 'string' ? { scheduledAt: f.scheduledAt } : {}),
  };
}

/**
 * A local draft holding the number the remote gave another invoice (made before the team synced, or numbered by
 * hand) gives it up and waits for a number of the remote's, which numbers it when it is pushed. Issued invoices
 * keep theirs: the pulled one is then refused, a conflict to resolve by hand.
 */
function releaseDraftNumber(w: Writer, invoiceNumber: string, exceptId: string): void {
  const holder = w.db
    .prepare(`SELECT id FROM invoices WHERE team_id = ? AND invoice_number = ? AND status = 'draft' AND id != ?`)
    .pluck()
    .get(w.teamId, invoiceNumber, exceptId) as string | undefined;
  if (holder) yieldNumber(w, holder, invoiceNumber);
}

/**
 * A draft of this replica gives up its number, which the remote holds for another invoice (a collision): it waits
 * for the number the remote gives it. The conflict shows the renumbering. Returns whether the conflict is new.
 */
export function yieldNumber(w: Writer, draftId: string, invoiceNumber: string): boolean {
  w.update('invoice', draftId, { invoice_number: NO_NUMBER });
  const remote = teamRemote(w.db, w.teamId);
  return remote
    ? recordConflict(w.db, {
        teamId: w.teamId,
        remoteId: remote.id,
        entity: 'invoice',
        localId: draftId,
        kind: 'fields',
        group: 'number',
        fields: ['invoiceNumber'],
        base: null,
        local: { invoiceNumber },
        remote: { invoiceNumber: null },
        rule: `the remote holds another invoice numbered ${invoiceNumber}: this draft gives the number up and takes the one the remote gives it`,
        ...codedRule('draft_number_yielded', { invoiceNumber }),
        winner: 'remote',
      })
    : false;
}

/** Creates a pulled invoice with the remote's id and number, then moves it to the state it has there. */
export function createInvoiceLocal(w: Writer, id: string, f: Fields): string {
  const currency = String(f.currency);
  const number = typeof f.invoiceNumber === 'string' ? f.invoiceNumber : undefined;
  if (number) releaseDraftNumber(w, number, id);
  createInvoice(w.db, w.teamId, { id, ...contentOf(f, currency), ...(number ? { invoiceNumber: number } : {}) } as InvoiceCreate);
  if (f.status !== 'draft') updateInvoice(w.db, w.teamId, id, lifecycleOf(f), undefined, FOLLOW);
  return id;
}

/**
 * Sets fields of a synced invoice. A number the remote gave an invoice that waited for one is taken whatever its
 * state (numbering is not an edit of an issued invoice); every other change goes through the invoice's checked
 * update, its lifecycle reached move by move.
 */
export function updateInvoiceLocal(w: Writer, id: string, f: Fields, full: Projection): void {
  const row = requireInvoiceRow(w.db, w.teamId, id);
  const patch: Partial<InvoicePatch> = { ...contentOf(f, String(full.currency)), ...lifecycleOf(f) };
  if (typeof f.invoiceNumber === 'string' && f.invoiceNumber !== row.invoice_number) {
    if (row.invoice_number === NO_NUMBER) takeNumber(w, id, f.invoiceNumber);
    else patch.invoiceNumber = f.invoiceNumber;
  }
  if (Object.keys(patch).length > 0) updateInvoice(w.db, w.teamId, id, patch, undefined, FOLLOW);
}

/** Gives an invoice waiting for its number the one the remote gave it. */
export function takeNumber(w: Writer, id: string, invoiceNumber: string): void {
  releaseDraftNumber(w, invoiceNumber, id);
  assertNumberFree(w.db, w.teamId, invoiceNumber, id);
  w.update('invoice', id, { invoice_number: invoiceNumber });
}

/** The local invoice a remote one is (same number and same content, see sameInvoice), if any. */
export function findInvoiceTwin(db: Db, teamId: string, p: Projection): string | undefined {
  if (typeof p.invoiceNumber !== 'string' || p.invoiceNumber === '') return undefined;
  const id = db
    .prepare('SELECT id FROM invoices WHERE team_id = ? AND invoice_number = ?')
    .pluck()
    .get(teamId, p.invoiceNumber) as string | undefined;
  const local = id ? readProjection(db, teamId, 'invoice', id) : undefined;
  return local && sameInvoice(local, p) ? id : undefined;
}
