/**
 * The agency's invoices over the demo window, in every status the hosted service knows.
 *
 * - Retainer customers get one invoice on the first working day of each month; other active customers get project
 *   invoices (1–3 services from the catalogue) until the month's revenue target is met: the team's capacity
 *   (`monthlyTarget`, from its payroll, so revenue keeps pace with hiring and cash stays plausible for every seed)
 *   times the season (SEASON: slow August and December, busy autumn).
 * - Totals follow hosted-service-facts "Invoices": subtotal = Σ price × quantity; vat = subtotal × vatRate %;
 *   tax likewise (0 here: the agency charges no other tax); amount = subtotal + vat + tax − discount. All in integer
 *   minor units of the invoice currency (EUR, or USD for US customers); line items store `priceMinor`.
 * - Status is what the customer's payment behaviour makes of it on the as-of day: paid when the payment has arrived
 *   (each paid invoice gets exactly one matching incoming transaction, same amount and currency, on `paidDay`);
 *   overdue when the due date has passed without one; unpaid when it is not yet due; a few canceled ones; a few
 *   refunded ones (paid, then returned by an outgoing transaction on `refundDay`); drafts dated in the last week;
 *   scheduled ones whose issue date is still ahead. Every status occurs at least twice.
 */

import { type EpochDay, isWeekend, type Month, workingDayOnOrAfter } from './calendar';
import { RETAINERS, SERVICES } from './catalog';
import { type DemoWindow, type MakeId, SEASON } from './context';
import type { DemoCustomer } from './customers';
import type { Prng } from './prng';

export type InvoiceStatus = 'draft' | 'scheduled' | 'unpaid' | 'overdue' | 'paid' | 'canceled' | 'refunded';
export const INVOICE_STATUSES: readonly InvoiceStatus[] = [
  'draft',
  'scheduled',
  'unpaid',
  'overdue',
  'paid',
  'canceled',
  'refunded',
];

export interface LineItem {
  name: string;
  quantity: number;
  unit: string;
  priceMinor: number;
}

export interface DemoInvoice {
  id: string;
  customer: DemoCustomer;
  number: string;
  status: InvoiceStatus;
  currency: 'EUR' | 'USD';
  subtotalMinor: number;
  vatMinor: number;
  taxMinor: number;
  discountMinor: number;
  amountMinor: number;
  vatRate: number;
  paymentTermsDays: number;
  issueDay: EpochDay;
  dueDay: EpochDay;
  sent: boolean;
  paidDay: EpochDay | null;
  refundDay: EpochDay | null;
  canceledDay: EpochDay | null;
  /**
   * The day a payment of exactly this invoice arrived from a payer whose name and reference say nothing (a payment
   * service's collective transfer): the matcher suggests it and a person confirms it. One open invoice has one on
   * every day the demo is seeded, so the invoices screen always has a payment to confirm.
   */
  unnamedPaymentDay: EpochDay | null;
  lineItems: LineItem[];
  /** Revenue category of the payment. */
  category: string;
  retainer: boolean;
  note: string | null;
}

const USD_PER_EUR_PRICE = 1.1;
const DOMESTIC_VAT = 19;

function price(eurMinor: number, currency: 'EUR' | 'USD'): number {
  return currency === 'EUR' ? eurMinor : Math.round((eurMinor * USD_PER_EUR_PRICE) / 100) * 100;
}

function randomWorkingDay(rng: Prng, from: EpochDay, to: EpochDay): EpochDay {
  for (let i = 0; i < 20; i++) {
    const d = rng.int(from, to);
    if (!isWeekend(d)) return d;
  }
  return from;
}

export function generateInvoices(
  rng: Prng,
  w: DemoWindow,
  customers: readonly DemoCustomer[],
  monthlyTarget: (m: Month) => number,
  makeId: MakeId,
): DemoInvoice[] {
  const active = customers.filter((c) => c.activity > 0);
  type Draft = Omit<
    DemoInvoice,
    'id' | 'number' | 'status' | 'paidDay' | 'refundDay' | 'canceledDay' | 'sent' | 'unnamedPaymentDay'
  >;
  const drafts: Draft[] = [];

  const build = (customer: DemoCustomer, issueDay: EpochDay, retainer: number | null): Draft => {
    const currency = customer.invoiceCurrency;
    const lineItems: LineItem[] = [];
    let category = 'service-revenue';
    if (retainer !== null) {
      const r = RETAINERS[retainer]!;
      lineItems.push({ name: r.name, quantity: 1, unit: 'month', priceMinor: price(r.priceMinor, currency) });
      category = 'subscription-revenue';
    } else {
      const services = rng.sample(
        SERVICES,
        rng.weighted([1, 2, 3], (n) => [0, 5, 3, 1][n]!),
      );
      for (const s of services) {
        const [lo, hi] = s.quantity;
        const quantity = s.unit === 'hours' ? rng.int(lo * 2, hi * 2) / 2 : rng.int(lo, hi);
        lineItems.push({ name: s.name, quantity, unit: s.unit, priceMinor: price(s.priceMinor, currency) });
      }
      category = services[0]!.category;
    }
    const subtotalMinor = lineItems.reduce((sum, li) => sum + Math.round(li.priceMinor * li.quantity), 0);
    const vatRate = customer.vat === 'domestic' ? DOMESTIC_VAT : 0;
    const vatMinor = Math.round((subtotalMinor * vatRate) / 100);
    const taxMinor = 0;
    const discountMinor = retainer === null && rng.chance(0.1) ? Math.round((subtotalMinor * rng.pick([5, 10])) / 100) : 0;
    const paymentTermsDays = retainer !== null ? 14 : rng.pick([14, 30, 30, 30]);
    return {
      customer,
      currency,
      subtotalMinor,
      vatMinor,
      taxMinor,
      discountMinor,
      amountMinor: subtotalMinor + vatMinor + taxMinor - discountMinor,
      vatRate,
      paymentTermsDays,
      issueDay,
      dueDay: issueDay + paymentTermsDays,
      lineItems,
      category,
      retainer: retainer !== null,
      note:
        customer.vat === 'reverse-charge'
          ? 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC).'
          : customer.vat === 'export'
            ? 'Service not taxable in Germany (place of supply: recipient).'
            : null,
    };
  };

  for (const m of w.months) {
    const lastDay = Math.min(m.last, w.asOf);
    const elapsed = (lastDay - m.first + 1) / (m.last - m.first + 1);
    // Revenue (ex VAT, EUR) the month's invoices aim at: the agency sells what its people can deliver.
    const target = monthlyTarget(m) * SEASON[m.month]! * elapsed * rng.logNormal(1, 0.08);
    let invoiced = 0;
    const eur = (d: Draft) => (d.currency === 'USD' ? d.subtotalMinor / USD_PER_EUR_PRICE : d.subtotalMinor);
    const retainerDay = workingDayOnOrAfter(m.first);
    if (retainerDay <= w.asOf) {
      for (const c of active) {
        if (c.retainer === null || c.since > retainerDay) continue;
        const d = build(c, retainerDay, c.retainer);
        drafts.push(d);
        invoiced += eur(d);
      }
    }
    for (let i = 0; i < 40 && invoiced < target; i++) {
      const issueDay = randomWorkingDay(rng, m.first, lastDay);
      const eligible = active.filter((c) => c.since <= issueDay);
      if (!eligible.length) continue;
      const d = build(
        rng.weighted(eligible, (c) => c.activity),
        issueDay,
        null,
      );
      drafts.push(d);
      invoiced += eur(d);
    }
  }
  drafts.sort((a, b) => a.issueDay - b.issueDay);

  // Not yet issued: drafts being written this week and invoices scheduled to go out soon.
  const recentCustomers = active.filter((c) => c.since <= w.asOf);
  const pending: { draft: Draft; status: 'draft' | 'scheduled' }[] = [];
  for (let i = 0; i < 4; i++)
    pending.push({ draft: build(rng.pick(recentCustomers), w.asOf - rng.int(0, 6), null), status: 'draft' });
  for (let i = 0; i < 3; i++)
    pending.push({ draft: build(rng.pick(recentCustomers), w.asOf + rng.int(2, 20), null), status: 'scheduled' });

  const invoices: DemoInvoice[] = drafts.map((d, i) => {
    // The customer's payment behaviour: most pay within terms, some late, a few very late.
    const r = rng.next();
    const delay =
      r < 0.7
        ? rng.int(3, d.paymentTermsDays)
        : r < 0.92
          ? d.paymentTermsDays + rng.int(1, 25)
          : d.paymentTermsDays + rng.int(40, 120);
    const payDay = workingDayOnOrAfter(d.issueDay + delay);
    let status: InvoiceStatus;
    let paidDay: EpochDay | null = null;
    let canceledDay: EpochDay | null = null;
    if (!d.retainer && d.issueDay < w.asOf - 30 && rng.chance(0.03)) {
      status = 'canceled';
      canceledDay = Math.min(d.issueDay + rng.int(2, 20), w.asOf);
    } else if (payDay < w.asOf) {
      status = 'paid';
      paidDay = payDay;
    } else status = d.dueDay < w.asOf ? 'overdue' : 'unpaid';
    return {
      ...d,
      id: makeId(),
      number: `INV-${String(i + 1).padStart(4, '0')}`,
      status,
      sent: true,
      paidDay,
      refundDay: null,
      canceledDay,
      unnamedPaymentDay: null,
    };
  });

  // Guarantee every status at least twice, deterministically, by adjusting the most plausible candidates.
  const count = (s: InvoiceStatus) => invoices.filter((inv) => inv.status === s).length;
  const oldPaid = () => invoices.filter((inv) => inv.status === 'paid' && !inv.retainer && inv.paidDay! < w.asOf - 60);
  // Refunds: three of the smaller old paid invoices (a refund of a big one would overdraw the account).
  const refundable = oldPaid().sort((a, b) => a.amountMinor - b.amountMinor);
  for (const inv of rng.sample(refundable.slice(0, Math.ceil(refundable.length / 2)), 3)) {
    inv.status = 'refunded';
    inv.refundDay = Math.min(workingDayOnOrAfter(inv.paidDay! + rng.int(10, 40)), w.asOf - 1);
  }
  for (const inv of oldPaid().slice(0, Math.max(0, 2 - count('canceled')))) {
    inv.status = 'canceled';
    inv.canceledDay = Math.min(inv.issueDay + 7, w.asOf);
    inv.paidDay = null;
  }
  const latest = [...invoices].reverse();
  for (const inv of latest.filter((x) => x.status === 'paid' && x.dueDay < w.asOf).slice(0, Math.max(0, 2 - count('overdue')))) {
    inv.status = 'overdue';
    inv.paidDay = null;
  }
  for (const inv of latest.filter((x) => x.status === 'paid' && x.dueDay >= w.asOf).slice(0, Math.max(0, 2 - count('unpaid')))) {
    inv.status = 'unpaid';
    inv.paidDay = null;
  }

  // The payment to confirm: the most recent open EUR invoice, paid in the last days (never before it was issued).
  const open = latest.find((x) => x.status === 'unpaid' && x.currency === 'EUR' && x.issueDay <= w.asOf);
  if (open) open.unnamedPaymentDay = Math.min(w.asOf, Math.max(open.issueDay, w.asOf - 2));

  let n = invoices.length;
  for (const { draft, status } of pending) {
    n++;
    invoices.push({
      ...draft,
      id: makeId(),
      number: `INV-${String(n).padStart(4, '0')}`,
      status,
      sent: false,
      paidDay: null,
      refundDay: null,
      canceledDay: null,
      unnamedPaymentDay: null,
    });
  }
  return invoices;
}
