import type { Invoice } from '../../../src-shared/contract/invoices';
import { roundDiv } from '../../../src-shared/domain/exact';
import { formatDayAs as formatDay } from '../../../src-shared/domain/invoice-dates';
import { invoiceDateFormat } from '../../../src-shared/domain/invoice-vat';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { categoryJoin, entryBillableSql, entryRateSourceSql, entryRateSql } from '../tracker/amount-sql';
import { getTrackerProject } from '../tracker/projects';
import { write } from '../write';
import { dayRange, inList } from './conditions';
import { getInvoiceSettings } from './settings';
import { createInvoice } from './write';

/**
 * An invoice draft from a tracker project's unbilled time (docs/decisions/0077-invoice-from-tracker.md).
 *
 * The finished billable entries of the project (stopped, with a duration and a rate) that are on no invoice — all of
 * them, or the ones named, optionally within a date range — become line items: their total duration in hours,
 * rounded half up to 0.01 h, at their hourly rate, in the project's currency, for the project's customer. Entries at
 * the project's rate make one line; entries at a category's rate (the project has none) one line per category
 * (docs/decisions/0146-tracker-categories.md). Entries of a non-billable category are never billed. The entries are
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
  rate_minor: number | null;
  rate_source: 'project' | 'category' | null;
  billable: number;
  category_id: string | null;
  category_name: string | null;
}

const ENTRY_COLUMNS = `e.id, e.date, e.duration_seconds, e.invoice_id, e.stop, ${entryRateSql('p', 'c')} AS rate_minor,
  ${entryRateSourceSql('p', 'c')} AS rate_source, ${entryBillableSql('p', 'c')} AS billable, e.category_id,
  c.name AS category_name
  FROM tracker_entries e JOIN tracker_projects p ON p.team_id = e.team_id AND p.id = e.project_id ${categoryJoin('e', 'c')}`;

/** Hours with two decimals, half up: seconds / 36 hundredths of an hour. */
const hoursOf = (entries: readonly EntryRow[]) =>
  Number(roundDiv(BigInt(entries.reduce((s, e) => s + e.duration_seconds, 0)), 36n)) / 100;

/** The entries' days as the invoice writes dates ("03.02.2025 – 05.02.2025" on a German invoice). */
function periodOf(entries: readonly EntryRow[], dateFormat: string): string {
  const days = entries.map((e) => e.date).sort();
  const first = formatDay(days[0]!, dateFormat);
  const last = formatDay(days[days.length - 1]!, dateFormat);
  return first === last ? first : `${first} – ${last}`;
}

/** "hours" in the invoice's language. */
const HOURS: Readonly<Record<string, string>> = { en: 'hours', de: 'Std.', fr: 'heures' };

/**
 * The language and date format the draft will be written in (as createInvoice decides them): the request's, else
 * the customer's invoice language, else the team's invoice settings.
 */
function draftLanguage(db: Db, teamId: string, customerId: string | null, input: TrackerInvoiceInput) {
  const team = getInvoiceSettings(db, teamId).template;
  const customerLocale = customerId
    ? (db.prepare('SELECT invoice_locale FROM customers WHERE team_id = ? AND id = ?').pluck().get(teamId, customerId) as
        | string
        | null
        | undefined)
    : null;
  const locale = input.template?.locale ?? customerLocale ?? team.locale;
  const dateFormat =
    input.template?.dateFormat ??
    (!input.template?.locale && customerLocale ? invoiceDateFormat(customerLocale) : team.dateFormat);
  return { locale, dateFormat };
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
    const currency = project.currency;
    if (!currency) throw new InvalidReference('projectId', `Tracker project ${project.name} has no currency to bill in`);
    const params: Record<string, unknown> = { team: teamId, project: project.id };
    const where = ['e.team_id = @team', 'e.project_id = @project', ...dayRange('e.date', input.from, input.to, params)];
    let entries: EntryRow[];
    if (input.entryIds) {
      const ids = [...new Set(input.entryIds)];
      where.push(inList('e.id', 'e', ids, params));
      entries = db.prepare(`SELECT ${ENTRY_COLUMNS} WHERE ${where.join(' AND ')}`).all(params) as EntryRow[];
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
      const unbillable = entries.filter((e) => e.billable !== 1 || e.rate_minor === null);
      if (unbillable.length) {
        throw new InvalidReference(
          'entryIds',
          `Entries without a billable rate (a non-billable category, or no rate on the project or the category): ${unbillable
            .map((e) => e.id)
            .slice(0, 5)
            .join(', ')}`,
        );
      }
    } else {
      entries = db
        .prepare(
          `SELECT ${ENTRY_COLUMNS}
           WHERE ${where.join(' AND ')} AND e.invoice_id IS NULL AND e.stop IS NOT NULL AND e.duration_seconds > 0
             AND ${entryBillableSql('p', 'c')} AND ${entryRateSql('p', 'c')} IS NOT NULL
           ORDER BY e.date, e.start, e.id`,
        )
        .all(params) as EntryRow[];
    }
    if (entries.length === 0 && project.rate === null) {
      throw new InvalidReference(
        'projectId',
        `Tracker project ${project.name} has no hourly rate, nor a category with a rate in ${currency} on its unbilled entries`,
      );
    }
    if (entries.length === 0) {
      throw new Conflict(
        `Tracker project ${project.name} has no unbilled time to invoice`,
        'Only finished, billable entries with an hourly rate (the project’s, or their category’s) are billed',
      );
    }
    // One line at the project's rate, or one per category whose rate applies.
    const groups = new Map<string, EntryRow[]>();
    for (const e of entries) {
      const key = e.rate_source === 'category' ? `c:${e.category_id}` : 'project';
      groups.set(key, [...(groups.get(key) ?? []), e]);
    }
    const language = draftLanguage(db, teamId, project.customerId, input);
    const lineItems = [...groups.values()].map((group) => {
      const first = group[0]!;
      const label = first.rate_source === 'category' ? `${project.name} – ${first.category_name}` : project.name;
      return {
        name: `${label} (${periodOf(group, language.dateFormat)})`,
        quantity: hoursOf(group),
        unit: HOURS[language.locale.toLowerCase().split(/[-_]/)[0] ?? 'en'] ?? HOURS.en!,
        price: toMajor(first.rate_minor!, currency),
      };
    });
    const invoice = createInvoice(
      db,
      teamId,
      {
        customerId: project.customerId,
        invoiceNumber: input.invoiceNumber,
        issueDate: input.issueDate,
        dueDate: input.dueDate,
        currency,
        template: input.template,
        note: input.note,
        deliveryType: 'create',
        lineItems,
      },
      { now, trackerProjectId: project.id },
    );
    for (const e of entries) w.update('tracker_entry', e.id, { invoice_id: invoice.id });
    return invoice;
  });
}
