import Database from 'better-sqlite3';
import { DB_FILE_NAME } from '../../../../src-main/store/db';
import type { Writer } from './acknowledged';

/**
 * The database file as a killed server left it, read with a read-only connection before anything opens it again
 * (a restart would recover the WAL and could hide what the crash did). SQL here only reads, for the checks.
 */
export interface DiskState {
  integrity: string;
  /** Per writer: record id → the value as the traffic wrote it (acknowledged.ts). */
  values: Record<Writer, Map<string, string>>;
  /** Per writer: how many records hold each value (a value is unique per write, so more than one is a duplicate). */
  copies: Record<Writer, Map<string, number>>;
  /** Invoice emails: delivery id → state; and the delivery ids of each invoice send key. */
  deliveries: Map<string, { state: string; sendKey: string | null }>;
  /** Workflow runs: execution id → status, and notifications per execution id. */
  runStatus: Map<string, string>;
  notificationsPerRun: Map<string, number>;
}

function countBy(values: Iterable<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

export function readDisk(dataDir: string, teamId: string): DiskState {
  const db = new Database(`${dataDir}/${DB_FILE_NAME}`, { readonly: true, fileMustExist: true });
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const rows = <T>(sql: string) => db.prepare(sql).all(teamId) as T[];
    const pairs: Record<Writer, [string, string][]> = {
      customer: rows<{ id: string; v: string }>(
        "SELECT id, name AS v FROM customers WHERE team_id = ? AND name LIKE 'Harness customer %'",
      ).map((r) => [r.id, r.v]),
      tag: rows<{ id: string; v: string }>("SELECT id, name AS v FROM tags WHERE team_id = ? AND name LIKE 'harness tag %'").map(
        (r) => [r.id, r.v],
      ),
      transaction: rows<{ id: string; v: string }>(
        "SELECT id, name || '|' || amount_minor AS v FROM transactions WHERE team_id = ? AND name LIKE 'Harness line %'",
      ).map((r) => [r.id, r.v]),
      'tracker-entry': rows<{ id: string; v: string }>(
        "SELECT id, description AS v FROM tracker_entries WHERE team_id = ? AND description LIKE 'harness hours %'",
      ).map((r) => [r.id, r.v]),
      invoice: rows<{ id: string; v: string }>(
        "SELECT id, note AS v FROM invoices WHERE team_id = ? AND note LIKE 'harness invoice %'",
      ).map((r) => [r.id, r.v]),
      // A send is its invoice email: the invoice id → the send key it was queued under (`send:INVOICE:KEY`).
      'invoice-send': rows<{ id: string; v: string }>(
        `SELECT invoice_id AS id, substr(idempotency_key, 7 + length(invoice_id)) AS v FROM invoice_deliveries
          WHERE team_id = ? AND kind = 'invoice' AND idempotency_key LIKE 'send:%:send harness invoice %'`,
      ).map((r) => [r.id, r.v]),
      // An import is its committed batch: the batch id → the mark its lines carry, read from its first line.
      import: rows<{ id: string; v: string }>(
        `SELECT b.id AS id, substr(min(t.name), 1, instr(min(t.name), ' line ') - 1) || '|' || b.created_count || '|' || count(t.id) AS v
           FROM import_batches b JOIN transactions t ON t.import_batch_id = b.id
          WHERE b.team_id = ? AND b.status = 'committed' GROUP BY b.id`,
      ).map((r) => [r.id, r.v]),
      'workflow-run': rows<{ id: string; v: string }>(
        "SELECT id, idempotency_key AS v FROM workflow_runs WHERE team_id = ? AND idempotency_key LIKE 'run-%'",
      ).map((r) => [r.id, r.v]),
    };
    const values = Object.fromEntries(Object.entries(pairs).map(([w, p]) => [w, new Map(p)])) as DiskState['values'];
    const copies = Object.fromEntries(
      Object.entries(pairs).map(([w, p]) => [w, countBy(p.map(([, v]) => v))]),
    ) as DiskState['copies'];
    const deliveries = new Map(
      rows<{ id: string; state: string; k: string | null }>(
        "SELECT id, state, substr(idempotency_key, 7 + length(invoice_id)) AS k FROM invoice_deliveries WHERE team_id = ? AND kind = 'invoice'",
      ).map((r) => [r.id, { state: r.state, sendKey: r.k }]),
    );
    const runStatus = new Map(
      rows<{ id: string; status: string }>('SELECT id, status FROM workflow_runs WHERE team_id = ?').map((r) => [r.id, r.status]),
    );
    const notificationsPerRun = countBy(
      rows<{ run: string }>(
        "SELECT json_extract(metadata, '$.executionId') AS run FROM notifications WHERE team_id = ? AND json_extract(metadata, '$.executionId') IS NOT NULL",
      ).map((r) => r.run),
    );
    return { integrity, values, copies, deliveries, runStatus, notificationsPerRun };
  } finally {
    db.close();
  }
}
