import { defaultCategories } from '../../src-shared/domain/categories';
import { reviewStateOf } from '../../src-shared/domain/review-state';
import type { Db } from '../store/db';
import { type SeedOptions, seedTeam } from '../store/demo/bulk-seed';
import type { SeedInvoice, SeedRecords, SeedSummary, SeedTransaction } from '../store/demo/seed-records';
import { updateTeam } from '../store/teams/team-api';
import { getTeamDetails } from '../store/teams/teams';
import { isoDay, isoInstant } from './calendar';
import { TAG_NAMES } from './catalog';
import { type DemoWindow, stamp } from './context';
import type { DemoInvoice } from './invoices';
import { streamTransactions } from './ledger';
import type { DemoDataSet } from './seed';

/**
 * Writes a planned data set (seed.ts) into one team: shapes the plan into the store's records — timestamps from the
 * data set's own clock, invoice templates, review states, tag ids — and hands them to the bulk seeder
 * (src-main/store/demo/bulk-seed.ts), which writes them through the write path. Ids are drawn from the plan's id
 * source in a fixed order (categories, tags, then transactions as they stream), so the same seed gives the same rows.
 */

/** The demo agency is German: its categories and their groups are the German default taxonomy. */
const COUNTRY = 'DE';

/**
 * What the agency's invoices state of it (docs/decisions/0121): its address and VAT number, and the IBAN of its
 * checking account — so a person trying the demo can issue an invoice, and sees what a complete one says.
 */
export const DEMO_SELLER = {
  countryCode: COUNTRY,
  addressLine1: 'Schönhauser Allee 36',
  zip: '10435',
  city: 'Berlin',
  vatNumber: 'DE298765432',
} as const;
export const DEMO_IBAN = 'DE89370400440532013000';

/** Writes the data set. The team must exist and hold no demo-table rows (store/demo/demo-data.ts teamHasData). */
export function writeDemo(db: Db, teamId: string, data: DemoDataSet, options: SeedOptions = {}): SeedSummary {
  const summary = seedTeam(db, teamId, demoRecords(data), options);
  // What the team already says of itself is kept; what it does not say, the demo says.
  const team = getTeamDetails(db, teamId);
  const missing = Object.fromEntries(
    Object.entries(DEMO_SELLER).filter(([k]) => !team[k as keyof typeof DEMO_SELLER]),
  ) as Partial<typeof DEMO_SELLER>;
  if (Object.keys(missing).length) updateTeam(db, { teamId, userId: null }, teamId, missing);
  return summary;
}

function demoRecords(d: DemoDataSet): SeedRecords {
  const w = d.window;
  const setup = stamp(w, w.first, 8 * 3600);
  // The team's categories are created first and so take the first ids (ids are time-ordered in the order drawn).
  const categoryIds = defaultCategories(COUNTRY).map(() => d.makeId());
  let nextCategory = 0;
  const tagIds = new Map(TAG_NAMES.map((name) => [name, d.makeId()]));
  const idsOf = (names: readonly string[]) => names.map((name) => tagIds.get(name)!);
  return {
    now: w.anchorIso,
    categories: { countryCode: COUNTRY, createdAt: setup, makeId: () => categoryIds[nextCategory++]! },
    tags: [...tagIds].map(([name, id]) => ({ id, name, createdAt: setup })),
    bankAccounts: d.accounts.map((a) => ({
      id: a.id,
      name: a.name,
      type: a.type,
      currency: a.currency,
      institutionId: a.institutionId,
      institutionName: a.institutionName,
      connectionId: `demo_conn_${a.institutionId}`,
      connectionName: a.connectionName,
      expiresAt: isoDay(w.asOf + 120),
      iban: a.key === 'checking' ? DEMO_IBAN : null,
      createdAt: setup,
    })),
    customers: [...d.customers]
      .sort((a, b) => a.since - b.since)
      .map(({ tagNames, since, ...c }) => ({
        ...c,
        tagIds: idsOf(tagNames),
        createdAt: stamp(w, since, 10 * 3600),
      })),
    invoices: d.invoices.map((inv) => invoiceRecord(w, inv)),
    projects: d.projects.map(({ customer, tagNames, start, end, ...p }) => {
      const createdAt = stamp(w, start, 9 * 3600);
      const updatedAt = p.status === 'completed' ? stamp(w, end, 17 * 3600) : createdAt;
      return { ...p, customerId: customer?.id ?? null, tagIds: idsOf(tagNames), createdAt, updatedAt };
    }),
    entries: d.entries.map((e) => ({
      id: e.id,
      projectId: e.project.id,
      date: isoDay(e.day),
      start: e.start,
      stop: e.stop,
      durationSeconds: e.durationSeconds,
      description: e.description,
      createdAt: e.stop,
      updatedAt: e.stop,
    })),
    notifications: d.notifications.map((n) => ({
      id: n.id,
      type: n.type,
      priority: n.priority,
      source: n.source,
      status: n.status,
      metadata: JSON.stringify(n.metadata),
      lastUsedAt: n.lastUsedAt,
      createdAt: n.createdAt,
      updatedAt: n.lastUsedAt ?? n.createdAt,
    })),
    // The exchange rates (units per USD on each month's first day) the base amounts were computed with, so
    // `finops ledger rebuild` recomputes the same figures from the table.
    rates: {
      source: 'demo',
      rows: w.months.map((m) => ({ currency: 'EUR', day: isoDay(m.first), perUsd: String(d.ledger.fx.get(m.index)!) })),
    },
    transactions: { rows: transactionRecords(d, idsOf), total: d.ledger.total },
  };
}

function invoiceRecord(w: DemoWindow, inv: DemoInvoice): SeedInvoice {
  const createdAt = stamp(w, Math.min(inv.issueDay, w.asOf) - (inv.status === 'scheduled' ? 1 : 0), 9 * 3600);
  const sentAt = inv.sent ? stamp(w, inv.issueDay, 9 * 3600 + 600) : null;
  const paidAt = inv.paidDay !== null ? stamp(w, inv.paidDay, 10 * 3600) : null;
  const last = [
    createdAt,
    sentAt,
    paidAt,
    ...[inv.refundDay, inv.canceledDay].map((x) => (x === null ? null : stamp(w, x, 11 * 3600))),
  ]
    .filter((x): x is string => x !== null)
    .sort();
  const us = inv.currency === 'USD';
  const template = {
    currency: inv.currency,
    locale: us ? 'en-US' : 'en-GB',
    dateFormat: us ? 'MM/dd/yyyy' : 'dd.MM.yyyy',
    paymentTermsDays: inv.paymentTermsDays,
    includeVat: inv.vatRate > 0,
    includeTax: false,
    includeDiscount: inv.discountMinor > 0,
    vatRate: inv.vatRate,
    taxRate: 0,
    size: us ? 'letter' : 'a4',
    deliveryType: inv.status === 'scheduled' ? 'scheduled' : inv.sent ? 'create_and_send' : 'create',
  };
  return {
    id: inv.id,
    customerId: inv.customer.id,
    customerName: inv.customer.name,
    invoiceNumber: inv.number,
    status: inv.status,
    currency: inv.currency,
    subtotalMinor: inv.subtotalMinor,
    vatMinor: inv.vatMinor,
    taxMinor: inv.taxMinor,
    discountMinor: inv.discountMinor,
    amountMinor: inv.amountMinor,
    issueDate: isoDay(inv.issueDay),
    dueDate: isoDay(inv.dueDay),
    sentAt,
    paidAt,
    // A plan for a day ahead, so not held to the anchor: the morning of its issue day.
    scheduledAt: inv.status === 'scheduled' ? isoInstant(inv.issueDay, 9 * 3600) : null,
    lineItems: JSON.stringify(inv.lineItems),
    template: JSON.stringify(template),
    note: inv.note,
    createdAt,
    updatedAt: last[last.length - 1]!,
  };
}

/** The planned ledger's rows as the store's records, with their derived review state (src-shared/domain/review-state.ts). */
function* transactionRecords(d: DemoDataSet, idsOf: (names: readonly string[]) => string[]): Generator<SeedTransaction> {
  const groupOf = new Map(defaultCategories(COUNTRY).map((c) => [c.slug, c.parentSlug ?? c.slug]));
  const rows = streamTransactions(d.rng.fork('transactions'), d.window, d.ledger, d.accounts, d.baseCurrency, d.makeId);
  for (const { tags, ...t } of rows) {
    const fulfilled = t.status === 'completed';
    const reviewState = reviewStateOf({
      status: t.status,
      amountMinor: t.amountMinor,
      internal: t.internal,
      reviewed: false,
      fulfilled,
      categoryGroup: groupOf.get(t.categorySlug) ?? null,
    });
    yield { ...t, reviewState, fulfilled, tagIds: idsOf(tags) };
  }
}
