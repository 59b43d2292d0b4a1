/**
 * What the screens need on top of the demo data for realistic pictures and journeys: notifications for the bell
 * (the demo data set may bring its own), made through the store like every other fixture, a published workflow
 * with a run waiting for its approval, and the invoice payments the matcher suggests.
 */

import { matchInvoicePayments } from '../../../src-main/store/invoices/matching';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { write } from '../../../src-main/store/write';
import type { UiServer } from './ui-server';
import { importApprovalWorkflow, startRun } from './workflows-data';

export async function seedScreensData(ui: UiServer, team = 'Browser Test Co'): Promise<void> {
  const teamId = ensureTeam(ui.server.db, team).id;
  // Payments the matcher is not sure of, to confirm on the invoices screen (the server's scheduler would find them
  // within 30 s; the pictures should not wait for it).
  matchInvoicePayments(ui.server.db, teamId);
  const key = ui.key(team);
  await startRun(ui, key, await importApprovalWorkflow(ui, key));
  const existing = ui.server.db.prepare('SELECT count(*) AS n FROM notifications WHERE team_id = ?').get(teamId) as { n: number };
  if (existing.n > 0) return;
  write(ui.server.db, teamId, (w) => {
    w.insert('notification', {
      type: 'transactions_created',
      priority: 2,
      source: 'system',
      status: 'unread',
      metadata: JSON.stringify({ count: 24 }),
    });
    w.insert('notification', {
      type: 'invoice_overdue',
      priority: 1,
      source: 'system',
      status: 'unread',
      metadata: JSON.stringify({ invoiceNumber: 'INV-0042', customerName: 'Nordlicht Design GmbH' }),
    });
  });
}

/** A small bank CSV export (semicolons, German decimal commas): the kind people drop on the import screen. */
export const SAMPLE_CSV = [
  'Buchungstag;Empfaenger;Verwendungszweck;Betrag',
  '03.11.2026;Kaffeeroesterei Nord;Kartenzahlung;-12,50',
  '04.11.2026;Nordlicht Design GmbH;Rechnung INV-0042;4.800,00',
  '05.11.2026;Stadtwerke;Strom November;-89,90',
  '06.11.2026;Cloud Hosting AG;Server;-49,00',
  '07.11.2026;Bahn;Fahrkarte Berlin;-79,90',
].join('\n');
