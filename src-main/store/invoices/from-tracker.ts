import type { Invoice } from '../../../src-shared/contract/invoices';
import { divRoundHalfAway } from '../../../src-shared/domain/invoice-amounts';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { getTrackerProject } from '../tracker/projects';
import { write } from '../write';
import { dayRange, inList } from './conditions';
import { createInvoice } from './write';

/**
 * An invoice draft from a tracker project's unbilled time (docs/decisions/0077-invoice-from-tracker.md).
 *
 * The finished entries of the project (stopped, with a duration) that are on no invoice — all of them, or the ones
 * named, optionally within a date range — become one line item: their total duration in hours, rounded half up to
 * 0.01 h, at the project's hourly rate, in the project's currency, for the project's customer. The entries are
 * billed on the draft (tracker_entries.invoice_id) in the same transaction; canceling or deleting the draft frees them.
 * Invoice arithmetic then applies as for any invoice, so the line reads hours × rate = amount; it can differ by a few
 * minor units from the tracker's total, which rounds each entry.
 */

export interface TrackerInvoiceInput {
  projectId: string;
  entryIds?: string[];
  from?: string;
  to?: string;
  issueDate?: string;
  dueDate?: string;
  invoiceNumber?: string;
  template?: Parameters<typeof createInvoice>[2]['template'];
  note?: string | null;
}

interface EntryRow {
  id: string;
  date: string;
  duration_seconds: number;
  invoice_id: string | null;
  stop: string | null;
}

export function invoiceFromTracker(db: Db, teamId: string, input: TrackerInvoiceInput, now = new Date()): Invoice {
  return write(db, teamId, (w) => {
    let project: ReturnType<typeof getTrackerProject>;
    try {
      project = getTrackerProject(db, teamId, input.projectId);
    } catch (e) {
      if (e instanceof NotFound) throw new InvalidReference('projectId', `The team has no tracker project ${input.projectId}`);
      throw e;
    }
    if (!project.billable) throw new Conflict(`Tracker project ${project.name} is not billable`);
    if (project.rate === null || !project.currency) {
      throw new InvalidReference('projectId', `Tracker project ${project.name} has no hourly rate and currency to bill`);
    }
    const params: Record<string, unknown> = { team: teamId, project: project.id };
    const where = ['team_id = @team', 'project_id = @project', ...dayRange('date', input.from, input.to, params)];
    let entries: EntryRow[];
    if (input.entryIds) {
      const ids = [...new Set(input.entryIds)];
      where.push(inList('id', 'e', ids, params));
      entries = db
        .prepare(`SELECT id, date, duration_seconds, invoice_id, stop FROM tracker_entries WHERE ${where.join(' AND ')}`)
        .all(params) as EntryRow[];
      const found = new Set(entries.map((e) => e.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) {
        throw new InvalidReference(
          'entryIds',
          `Not finished entries of this project in the range: ${missing.slice(0, 5).join(', ')}`,
        );
      }
      const billed = entries.filter((e) => e.invoice_id !== null);
      if (billed.length)
        throw new Conflict(
          `Entries already billed on another invoice: ${billed
            .map((e) => e.id)
            .slice(0, 5)
            .join(', ')}`,
        );
      const running = entries.filter((e) => e.stop === null);
      if (running.length) throw new Conflict('A running entry cannot be billed; stop the timer first');
    } else {
      entries = db
        .prepare(
          `SELECT id, date, duration_seconds, invoice_id, stop FROM tracker_entries
           WHERE ${where.join(' AND ')} AND invoice_id IS NULL AND stop IS NOT NULL AND duration_seconds > 0
           ORDER BY date, start, id`,
        )
        .all(params) as EntryRow[];
    }
    if (entries.length === 0) throw new Conflict(`Tracker project ${project.name} has no unbilled time to invoice`);
    const seconds = entries.reduce((s, e) => s + e.duration_seconds, 0);
    // Hours with two decimals, half up: seconds / 36 hundredths of an hour.
    const hundredths = Number(divRoundHalfAway(BigInt(seconds), 36n));
    const dates = entries.map((e) => e.date).sort();
    const period = dates[0] === dates[dates.length - 1] ? dates[0] : `${dates[0]} – ${dates[dates.length - 1]}`;
    const invoice = createInvoice(
      db,
      teamId,
      {
        customerId: project.customerId,
        invoiceNumber: input.invoiceNumber,
        issueDate: input.issueDate,
        dueDate: input.dueDate,
        currency: project.currency,
        template: input.template,
        note: input.note,
        deliveryType: 'create',
        lineItems: [
          {
            name: `${project.name} (${period})`,
            quantity: hundredths / 100,
            unit: 'hours',
            price: project.rate,
          },
        ],
      },
      { now, trackerProjectId: project.id },
    );
    for (const e of entries) w.update('tracker_entry', e.id, { invoice_id: invoice.id });
    return invoice;
  });
}
