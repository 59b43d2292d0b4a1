import type { Statement } from 'better-sqlite3';
import { type Db, openDatabase } from '../../../../src-main/store/db';
import { newId, nowIso } from '../../../../src-main/store/ids';
import { createTeam } from '../../../../src-main/store/teams/teams';
import { tmpDir } from '../../../helpers/tmp';

export type InvoiceStatus = 'draft' | 'scheduled' | 'unpaid' | 'overdue' | 'paid' | 'canceled' | 'refunded';

let invoiceNo = 0;
const statements = new WeakMap<Db, Statement<unknown[]>>();

/** Inserts an invoice row directly (the invoices store belongs to another area; only the table matters here). */
export function insertInvoice(
  db: Db,
  teamId: string,
  customerId: string | null,
  inv: { status: InvoiceStatus; currency: string; amountMinor: number; issueDate: string; paidAt?: string | null },
): string {
  const id = newId();
  const now = nowIso();
  invoiceNo += 1;
  let insert = statements.get(db);
  if (!insert) {
    insert = db.prepare<unknown[]>(
      `INSERT INTO invoices (id, team_id, customer_id, invoice_number, status, currency, amount_minor, issue_date, due_date,
       paid_at, created_at, updated_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
    );
    statements.set(db, insert);
  }
  insert.run(
    id,
    teamId,
    customerId,
    `INV-${String(invoiceNo).padStart(6, '0')}`,
    inv.status,
    inv.currency,
    inv.amountMinor,
    inv.issueDate,
    inv.issueDate,
    inv.paidAt ?? (inv.status === 'paid' ? `${inv.issueDate}T12:00:00.000Z` : null),
    now,
    now,
  );
  return id;
}

/** A fresh database file with two teams. */
export function freshDb(lifetime: 'test' | 'file' = 'test'): { db: Db; teamA: string; teamB: string } {
  const db = openDatabase(tmpDir('finops-customers-', lifetime));
  const teamA = createTeam(db, { name: `A-${newId()}` }).id;
  const teamB = createTeam(db, { name: `B-${newId()}` }).id;
  return { db, teamA, teamB };
}

export function setCreatedAt(db: Db, customerId: string, iso: string): void {
  db.prepare('UPDATE customers SET created_at = ? WHERE id = ?').run(iso, customerId);
}

export function daysAgo(days: number, now = new Date()): Date {
  return new Date(now.getTime() - days * 86_400_000);
}
