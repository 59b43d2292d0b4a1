import type { RecordResource } from '../../../src-shared/contract/workflow-definition';
import { toMajor } from '../../../src-shared/money';
import { getCustomer } from '../customers/read';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { write } from '../write';
import { effectResult, recordEffect } from './runs/effects';

/**
 * What workflow runs read and write outside their own tables: the records a trigger's data names (checked against
 * the caller's team only), the records a `load_record` node brings into a run, and the notifications a `notify`
 * node creates. Every query filters by team: another team's id is simply not found.
 */

const TABLES: Record<RecordResource, string> = { invoice: 'invoices', customer: 'customers', transaction: 'transactions' };

export function recordExists(db: Db, teamId: string, resource: RecordResource, id: string): boolean {
  return db.prepare(`SELECT 1 FROM ${TABLES[resource]} WHERE team_id = ? AND id = ?`).get(teamId, id) !== undefined;
}

interface InvoiceRow {
  id: string;
  invoice_number: string;
  status: string;
  currency: string;
  amount_minor: number;
  issue_date: string;
  due_date: string;
  customer_id: string | null;
  customer_name: string | null;
  sent_at: string | null;
}

interface TransactionRow {
  id: string;
  name: string;
  amount_minor: number;
  currency: string;
  date: string;
  status: string;
  category_slug: string | null;
  counterparty_name: string | null;
  note: string | null;
}

/**
 * A record as a run sees it (amounts in major units, as the API shows them). Invoices and transactions are read
 * here in a small fixed shape until their resources' own reads exist; customers use the customer read.
 */
export function loadRecord(db: Db, teamId: string, resource: RecordResource, id: string): Record<string, unknown> {
  if (resource === 'customer') return getCustomer(db, teamId, id) as unknown as Record<string, unknown>;
  if (resource === 'invoice') {
    const r = db
      .prepare(
        `SELECT id, invoice_number, status, currency, amount_minor, issue_date, due_date, customer_id, customer_name, sent_at
         FROM invoices WHERE team_id = ? AND id = ?`,
      )
      .get(teamId, id) as InvoiceRow | undefined;
    if (!r) throw new NotFound('invoice', id);
    return {
      id: r.id,
      invoiceNumber: r.invoice_number,
      status: r.status,
      currency: r.currency,
      amount: toMajor(r.amount_minor, r.currency),
      issueDate: r.issue_date,
      dueDate: r.due_date,
      customerId: r.customer_id,
      customerName: r.customer_name,
      sentAt: r.sent_at,
    };
  }
  const r = db
    .prepare(
      `SELECT id, name, amount_minor, currency, date, status, category_slug, counterparty_name, note
       FROM transactions WHERE team_id = ? AND id = ?`,
    )
    .get(teamId, id) as TransactionRow | undefined;
  if (!r) throw new NotFound('transaction', id);
  return {
    id: r.id,
    name: r.name,
    amount: toMajor(r.amount_minor, r.currency),
    currency: r.currency,
    date: r.date,
    status: r.status,
    categorySlug: r.category_slug,
    counterpartyName: r.counterparty_name,
    note: r.note,
  };
}

export interface WorkflowNotification {
  /** The step's effect key: a second call with it creates nothing and returns the first notification's id. */
  key: string;
  runId: string;
  workflowId: string;
  type: string;
  priority: number;
  message: string;
  metadata: Record<string, unknown>;
}

/** Creates a team notification from a run, at most once per effect key. Returns its id. */
export function createWorkflowNotification(db: Db, teamId: string, n: WorkflowNotification): string {
  return write(
    db,
    teamId,
    (w) => {
      const done = effectResult(db, teamId, n.key);
      if (done) return (done.result as { notificationId: string }).notificationId;
      const notificationId = w.insert('notification', {
        user_id: null,
        type: n.type,
        priority: n.priority,
        source: 'system',
        status: 'unread',
        metadata: JSON.stringify({ ...n.metadata, message: n.message, workflowId: n.workflowId, executionId: n.runId }),
      });
      recordEffect(w, n.key, n.runId, 'notify', { notificationId });
      return notificationId;
    },
    { origin: 'workflow' },
  );
}

/** Notifications a run created (tests and the CLI; the notifications API is the Ledger area's). */
export function notificationsOfRun(db: Db, teamId: string, runId: string): { id: string; type: string; message: string }[] {
  return db
    .prepare(
      `SELECT id, type, json_extract(metadata, '$.message') AS message FROM notifications
         WHERE team_id = ? AND json_extract(metadata, '$.executionId') = ? ORDER BY created_at, id`,
    )
    .all(teamId, runId) as { id: string; type: string; message: string }[];
}
