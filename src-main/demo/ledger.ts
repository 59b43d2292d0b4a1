/**
 * The agency's bank transactions: a fixed "skeleton" of business events plus card spend ("filler") whose count is
 * what `--transactions N` scales.
 *
 * Skeleton (per month, on realistic days): opening balances; rent; subscriptions (per seat, some billed in USD,
 * annual ones once a year); utilities, tax adviser, insurance, occasional legal fees; payroll per employee on the
 * last working day (Christmas bonus in November) with social security and wage tax; subcontractors; bank fees;
 * interest on savings; a monthly tax-reserve transfer checking → savings and VAT / corporate-tax payments out of it;
 * a quarterly USD → EUR conversion; one incoming client payment per paid (or refunded) invoice — same amount and
 * currency, on the invoice's `paidDay` — and one outgoing refund per refunded invoice. Transfers between own
 * accounts are two legs (internal = 1) on the same day, each naming the other in `metadata.transferPairId`, whose
 * amounts in the team's base currency cancel out exactly (a conversion's EUR leg is the USD leg converted at the
 * month's rate, with the same exact conversion the base amounts use).
 *
 * Filler: card purchases at merchants (more travel in spring and autumn, more advertising in Q4), mostly on the EUR
 * checking account, a few on the USD account. Without N the count per month is natural (~45); with N the remaining
 * N − skeleton rows are spread over the same months (in proportion to the natural counts) and days (weekdays more
 * than weekends), and each amount is scaled by natural ÷ actual count, so monthly totals — and so reports, burn rate
 * and runway — look the same at 3,000 rows and at 1,000,000.
 *
 * Rows come out of `streamTransactions` in (date, generation) order with ids from the id source in that same order;
 * since ids are time-ordered, `ORDER BY date, id` replays them, and each row's `balanceMinor` is its account's
 * running balance after it.
 */

import { convertMinor } from '../../src-shared/domain/fx';
import type { SeedTransaction } from '../store/demo/seed-records';
import { type AccountKey, type DemoAccount, type Employee, employed } from './accounts';
import {
  dayInMonth,
  type EpochDay,
  isoDay,
  isWeekend,
  type Month,
  weekday,
  workingDayOnOrAfter,
  workingDayOnOrBefore,
} from './calendar';
import { MERCHANTS, type Merchant, SUBSCRIPTIONS } from './catalog';
import { type DemoWindow, growth, type MakeId, SEASON, stamp } from './context';
import type { DemoInvoice } from './invoices';
import type { Prng } from './prng';

export interface Leg {
  account: AccountKey;
  amountMinor: number;
  name: string;
  description: string | null;
  method: string;
  counterparty: string | null;
  merchant: string | null;
  category: string;
  recurring: boolean;
  frequency: string | null;
  manual: boolean;
  internal: boolean;
  status?: string;
  tags: readonly string[];
  metadata: Record<string, unknown> | null;
  /** Seconds into the day the bank booked it (created_at). */
  time: number;
}

interface Entry {
  day: EpochDay;
  legs: Leg[];
}

/** A planned transaction: the columns the store writes, with its tags by name (write.ts derives the rest). */
export interface TxRow extends Omit<SeedTransaction, 'reviewState' | 'fulfilled' | 'tagIds'> {
  tags: readonly string[];
}

interface FillerMonth {
  month: Month;
  natural: Record<'checking' | 'usd', number>;
  actual: Record<'checking' | 'usd', number>;
}

export interface LedgerPlan {
  skeleton: Entry[];
  skeletonRows: number;
  filler: FillerMonth[];
  fillerRows: number;
  total: number;
  /** USD → EUR rate per month index. */
  fx: Map<number, number>;
}

/** Share of collected VAT paid to the tax office: the rest is offset by VAT on the agency's own purchases. */
const VAT_PAYABLE = 0.82;

const USD_MERCHANTS: readonly Merchant[] = [
  { name: 'Coffee Bar SoMa', category: 'meals', median: 1_200, sigma: 0.4, weight: 5 },
  { name: 'Rideshare US', category: 'transportation', median: 2_600, sigma: 0.5, weight: 4, tags: ['travel'] },
  {
    name: 'Union Square Hotel',
    category: 'accommodation',
    median: 24_000,
    sigma: 0.4,
    weight: 1,
    tags: ['travel', 'reimbursable'],
  },
  { name: 'Design Conference Pass', category: 'events', median: 49_900, sigma: 0.3, weight: 1 },
  { name: 'Font Foundry', category: 'production-costs', median: 9_900, sigma: 0.5, weight: 2 },
  { name: 'Icon Marketplace', category: 'software', median: 2_900, sigma: 0.5, weight: 3 },
];

/** The expected amount of one card purchase at a randomly picked merchant (the mean of a log-normal is median·e^(σ²/2)). */
function meanAmount(merchants: readonly Merchant[]): number {
  const total = merchants.reduce((s, m) => s + m.weight, 0);
  return merchants.reduce((s, m) => s + (m.weight / total) * m.median * Math.exp((m.sigma * m.sigma) / 2), 0);
}
const MEAN_CARD_EUR = meanAmount(MERCHANTS);
const MEAN_CARD_USD = meanAmount(USD_MERCHANTS);

/** Plans the ledger: every skeleton entry, and how many filler rows each month gets. */
export function planLedger(
  rng: Prng,
  w: DemoWindow,
  accounts: readonly DemoAccount[],
  employees: readonly Employee[],
  invoices: readonly DemoInvoice[],
  targetTotal?: number,
): LedgerPlan {
  const fx = new Map<number, number>();
  let rate = 0.92;
  for (const m of w.months) {
    rate = Math.min(0.99, Math.max(0.85, rate + rng.normal(0, 0.012)));
    fx.set(m.index, Math.round(rate * 10_000) / 10_000);
  }
  const frng = rng.fork('filler-plan');
  const filler: FillerMonth[] = w.months.map((m) => {
    const elapsed = (Math.min(m.last, w.asOf) - m.first + 1) / (m.last - m.first + 1);
    const staff = employees.filter((e) => employed(e, m.first)).length;
    const season = SEASON[m.month]!;
    const natural = {
      checking: Math.max(1, Math.round(frng.normal(46, 5) * season * (staff / 9) * elapsed)),
      usd: Math.max(0, Math.round(frng.normal(5, 1.5) * season * elapsed)),
    };
    return { month: m, natural, actual: { ...natural } };
  });
  const skeleton = buildSkeleton(rng.fork('skeleton'), w, accounts, employees, invoices, fx, filler);
  const skeletonRows = skeleton.reduce((n, e) => n + e.legs.length, 0);
  const naturalRows = filler.reduce((n, f) => n + f.natural.checking + f.natural.usd, 0);
  let fillerRows = naturalRows;
  if (targetTotal !== undefined) {
    fillerRows = targetTotal - skeletonRows;
    if (fillerRows < 0) throw new LedgerTooSmall(targetTotal, skeletonRows);
    // Largest-remainder apportionment of the filler rows over (month, account) cells, in proportion to the natural
    // counts: exact total, deterministic (ties go to the earlier cell).
    const cells = filler.flatMap((f) =>
      (['checking', 'usd'] as const).map((k) => ({ f, k, share: (fillerRows * f.natural[k]) / naturalRows })),
    );
    let given = 0;
    for (const c of cells) {
      c.f.actual[c.k] = Math.floor(c.share);
      given += c.f.actual[c.k];
    }
    const byRemainder = cells.map((c, i) => ({ c, i, r: c.share - Math.floor(c.share) })).sort((a, b) => b.r - a.r || a.i - b.i);
    for (let j = 0; given < fillerRows; j++, given++)
      byRemainder[j % byRemainder.length]!.c.f.actual[byRemainder[j % byRemainder.length]!.c.k]++;
  }
  return { skeleton, skeletonRows, filler, fillerRows, total: skeletonRows + fillerRows, fx };
}

/** `--transactions N` below the skeleton's size: the fixed business events alone need more rows. */
export class LedgerTooSmall extends Error {
  override name = 'LedgerTooSmall';
  constructor(
    readonly requested: number,
    readonly minimum: number,
  ) {
    super(
      `--transactions must be at least ${minimum} for this data set (payroll, rent, subscriptions, transfers and invoice payments); got ${requested}`,
    );
  }
}

function buildSkeleton(
  rng: Prng,
  w: DemoWindow,
  accounts: readonly DemoAccount[],
  employees: readonly Employee[],
  invoices: readonly DemoInvoice[],
  fx: Map<number, number>,
  filler: readonly FillerMonth[],
): Entry[] {
  const entries: Entry[] = [];
  const balance: Record<AccountKey, number> = { checking: 0, savings: 0, usd: 0 };
  const acct = (key: AccountKey) => accounts.find((a) => a.key === key)!;
  const bank = (seconds = 6 * 3600) => seconds + rng.int(0, 7200);
  const add = (day: EpochDay, ...legs: Leg[]) => {
    if (day > w.asOf || day < w.first) return;
    entries.push({ day, legs });
    for (const l of legs) balance[l.account] += l.amountMinor;
  };
  const leg = (account: AccountKey, amountMinor: number, name: string, category: string, extra: Partial<Leg> = {}): Leg => ({
    account,
    amountMinor,
    name,
    description: null,
    method: 'payment',
    counterparty: null,
    merchant: null,
    category,
    recurring: false,
    frequency: null,
    manual: false,
    internal: false,
    tags: [],
    metadata: null,
    time: bank(),
    ...extra,
  });
  const transfer = (
    day: EpochDay,
    from: AccountKey,
    to: AccountKey,
    amountFrom: number,
    amountTo: number,
    extra: Record<string, unknown> = {},
  ) => {
    const common = { method: 'transfer', internal: true, metadata: { ...extra } };
    add(
      day,
      leg(from, -amountFrom, `Transfer to ${acct(to).name}`, 'internal-transfer', { ...common, counterparty: acct(to).name }),
      leg(to, amountTo, `Transfer from ${acct(from).name}`, 'internal-transfer', {
        ...common,
        counterparty: acct(from).name,
      }),
    );
  };
  const label = (m: Month) => `${String(m.month).padStart(2, '0')}/${m.year}`;

  for (const a of accounts) {
    add(
      w.first,
      leg(a.key, a.openingMinor, 'Opening balance', 'other', { status: 'excluded', manual: true, method: 'deposit', time: 0 }),
    );
  }

  const paidByDay = new Map<EpochDay, DemoInvoice[]>();
  for (const inv of invoices) {
    for (const day of [inv.paidDay, inv.refundDay, inv.unnamedPaymentDay]) {
      if (day === null) continue;
      const list = paidByDay.get(day) ?? [];
      list.push(inv);
      paidByDay.set(day, list);
    }
  }

  let prevVat = 0;
  let prevNetRevenue = 0;
  const rentBase = rng.int(50, 58) * 10_000;
  for (const [k, m] of w.months.entries()) {
    const monthIdx = m.index - w.months[0]!.index;
    // The balances tracked here steer transfers; card spend (filler) is not generated yet, so count its expected sum.
    balance.checking -= Math.round(filler[k]!.natural.checking * MEAN_CARD_EUR);
    balance.usd -= Math.round(filler[k]!.natural.usd * MEAN_CARD_USD);
    const season = SEASON[m.month]!;
    const rate = fx.get(m.index)!;
    const lastWorking = workingDayOnOrBefore(m.last);

    // Rent, indexed 3 % a year.
    const rent = Math.round((rentBase * 1.03 ** Math.floor(monthIdx / 12)) / 100) * 100;
    add(
      workingDayOnOrAfter(m.first),
      leg('checking', -rent, 'Office rent', 'rent', {
        counterparty: 'Hofgarten Immobilien GmbH',
        description: `Miete ${label(m)} Büro Torstraße`,
        recurring: true,
        frequency: 'monthly',
        tags: ['recurring'],
      }),
    );

    // Reserve for taxes: what last month's VAT return will take plus 4 % of its net revenue, rounded to 100 EUR.
    const reserve = Math.max(100_000, Math.round((prevVat * VAT_PAYABLE + prevNetRevenue * 0.04) / 10_000) * 10_000);
    transfer(workingDayOnOrAfter(m.first + 2), 'checking', 'savings', reserve, reserve);
    if (prevVat > 0) {
      add(
        workingDayOnOrAfter(dayInMonth(m, 10)),
        leg('savings', -Math.round(prevVat * VAT_PAYABLE), 'Tax office Berlin', 'vat-payments', {
          counterparty: 'Finanzamt Berlin',
          description: `VAT advance payment ${label({ ...m, month: m.month === 1 ? 12 : m.month - 1, year: m.month === 1 ? m.year - 1 : m.year })}`,
          recurring: true,
          frequency: 'monthly',
        }),
      );
    }
    if (m.month % 3 === 0) {
      add(
        workingDayOnOrAfter(dayInMonth(m, 10)),
        leg('savings', -Math.round((650_000 * growth(w, m)) / 100) * 100, 'Tax office Berlin', 'income-tax', {
          counterparty: 'Finanzamt Berlin',
          description: `Corporate and trade tax prepayment Q${m.month / 3} ${m.year}`,
          recurring: true,
          frequency: 'irregular',
        }),
      );
    }

    // Subscriptions.
    for (const s of SUBSCRIPTIONS) {
      if (s.frequency === 'annually' && s.month !== m.month) continue;
      const day = dayInMonth(m, s.day);
      const seats = employees.filter((e) => employed(e, day)).length;
      let amount = s.priceMinor * (s.perSeat ? seats : 1);
      if (s.variable) amount = Math.round(amount * growth(w, m) * rng.logNormal(1, 0.15));
      add(
        day,
        leg(s.currency === 'USD' ? 'usd' : 'checking', -amount, s.vendor, s.category, {
          merchant: s.vendor,
          counterparty: s.vendor,
          method: 'card_purchase',
          recurring: true,
          frequency: s.frequency,
          tags: ['recurring'],
          time: rng.int(1, 6) * 3600,
        }),
      );
    }

    // Utilities, advisers, insurance.
    const winter = [1, 2, 3, 11, 12].includes(m.month) ? 1.4 : [6, 7, 8].includes(m.month) ? 0.75 : 1;
    add(
      workingDayOnOrAfter(dayInMonth(m, 15)),
      leg('checking', -Math.round(26_000 * winter * rng.logNormal(1, 0.08)), 'Stadtwerke Energie', 'utilities', {
        counterparty: 'Stadtwerke Energie GmbH',
        recurring: true,
        frequency: 'monthly',
      }),
    );
    add(
      workingDayOnOrAfter(dayInMonth(m, 20)),
      leg('checking', -69_020, 'Kanzlei Roth Steuerberatung', 'accounting', {
        counterparty: 'Kanzlei Roth Steuerberatung',
        description: `Payroll and bookkeeping ${label(m)}`,
        recurring: true,
        frequency: 'monthly',
      }),
    );
    if (m.month === 1) {
      add(
        workingDayOnOrAfter(dayInMonth(m, 5)),
        leg('checking', -184_000, 'Business liability insurance', 'insurance', {
          counterparty: 'Rheinland Versicherung AG',
          recurring: true,
          frequency: 'annually',
        }),
      );
    }
    if (rng.chance(0.12)) {
      add(
        workingDayOnOrAfter(dayInMonth(m, rng.int(5, 25))),
        leg('checking', -rng.int(60, 250) * 1_000, 'Weiss & Partner Rechtsanwälte', 'legal', {
          counterparty: 'Weiss & Partner Rechtsanwälte',
          description: rng.pick(['Contract review', 'Terms and conditions update', 'Employment contract']),
        }),
      );
    }

    // Subcontractors: more of them in busy months.
    const freelancers = Math.max(0, Math.round(rng.normal(2 * season, 0.8)));
    for (let i = 0; i < freelancers; i++) {
      const who = rng.pick(['Studio Kranich', 'Jana Pohl Illustration', 'DevOps Dienste Nord', 'Copy & Claim', 'Motion by Ruiz']);
      add(
        workingDayOnOrAfter(dayInMonth(m, rng.int(3, 27))),
        leg('checking', -Math.round(rng.logNormal(320_000, 0.4) / 100) * 100, who, 'subcontractors', {
          counterparty: who,
          description: `Invoice ${rng.int(100, 999)}-${m.year}`,
          tags: rng.chance(0.5) ? ['project'] : [],
        }),
      );
    }

    // Payroll on the last working day; social security a few days before; wage tax on the 10th of the next month.
    const staff = employees.filter((e) => employed(e, lastWorking));
    const gross = staff.reduce((s, e) => s + e.grossMinor, 0);
    add(
      workingDayOnOrBefore(m.last - 3),
      leg('checking', -Math.round(gross * 0.4), 'Social security contributions', 'payroll-taxes', {
        counterparty: 'Techniker Krankenkasse',
        description: `Beitragsnachweis ${label(m)}`,
        recurring: true,
        frequency: 'monthly',
      }),
    );
    for (const e of staff) {
      add(
        lastWorking,
        leg('checking', -Math.round(e.grossMinor * 0.615), `Salary ${label(m)}`, 'salary', {
          counterparty: e.name,
          description: `Gehalt ${label(m)} ${e.name}`,
          recurring: true,
          frequency: 'monthly',
        }),
      );
      if (m.month === 11) {
        add(
          lastWorking,
          leg('checking', -Math.round(e.grossMinor * 0.3), `Christmas bonus ${m.year}`, 'salary', { counterparty: e.name }),
        );
      }
    }
    add(
      workingDayOnOrAfter(dayInMonth(m, 10)),
      leg('checking', -Math.round(gross * 0.18), 'Tax office Berlin', 'payroll-taxes', {
        counterparty: 'Finanzamt Berlin',
        description: 'Lohnsteuer-Anmeldung',
        recurring: true,
        frequency: 'monthly',
      }),
    );

    // Bank fees and interest.
    add(
      lastWorking,
      leg('checking', -2_990, 'Account maintenance fee', 'banking-fees', { method: 'fee', counterparty: 'Hansa Bank' }),
    );
    add(
      lastWorking,
      leg('usd', -1_500, 'Monthly service fee', 'banking-fees', { method: 'fee', counterparty: 'Atlantic Business Bank' }),
    );
    if (balance.savings > 0) {
      add(
        m.last,
        leg('savings', Math.round((balance.savings * 0.02) / 12), 'Interest', 'interest-income', {
          method: 'interest',
          counterparty: 'Hansa Bank',
          recurring: true,
          frequency: 'monthly',
        }),
      );
    }

    // Client payments and refunds.
    let vat = 0;
    let netRevenue = 0;
    for (let day = m.first; day <= m.last; day++) {
      for (const inv of paidByDay.get(day) ?? []) {
        const account: AccountKey = inv.currency === 'USD' ? 'usd' : 'checking';
        const refund = inv.refundDay === day;
        if (inv.unnamedPaymentDay === day) {
          // Nothing in it names the customer or the invoice: only its amount and day fit (the matcher's 0.7).
          add(
            day,
            leg(account, inv.amountMinor, 'SEPA credit transfer', inv.category, {
              counterparty: 'Paydirect Collections',
              method: 'transfer',
              description: `Collective transfer ${isoDay(day).replaceAll('-', '')}-${inv.amountMinor % 9973}`,
            }),
          );
          continue;
        }
        const common = {
          counterparty: inv.customer.name,
          method: inv.currency === 'USD' ? 'ach' : 'transfer',
          metadata: { invoiceId: inv.id, invoiceNumber: inv.number },
          tags: inv.retainer ? ['retainer'] : [],
        };
        if (refund) {
          add(
            day,
            leg(account, -inv.amountMinor, `Refund ${inv.number}`, 'customer-refunds', {
              ...common,
              description: `Refund ${inv.number}`,
            }),
          );
        } else {
          add(
            day,
            leg(account, inv.amountMinor, inv.customer.name, inv.category, {
              ...common,
              description: `${inv.number} ${inv.customer.name}`,
            }),
          );
          vat += inv.vatMinor;
          netRevenue += Math.round((inv.amountMinor - inv.vatMinor) * (inv.currency === 'USD' ? rate : 1));
        }
      }
    }
    prevVat = vat;
    prevNetRevenue = netRevenue;

    // After the annual accounts, profit above a buffer of about two months' costs goes out to the shareholders.
    if (m.month === 5 && balance.checking > 27_000_000) {
      add(
        workingDayOnOrAfter(dayInMonth(m, 20)),
        leg(
          'checking',
          -Math.floor((balance.checking - 20_000_000) / 1_000_000) * 1_000_000,
          `Dividend distribution ${m.year - 1}`,
          'owner-draws',
          {
            counterparty: 'Shareholders',
            description: `Gewinnausschüttung ${m.year - 1}`,
          },
        ),
      );
    }

    // Quarterly conversion of USD earnings to EUR at the quarter's end, keeping a float of about 15,000 USD.
    if (m.month % 3 === 0) {
      const convertible = Math.floor((balance.usd - 1_500_000) / 100_000) * 100_000;
      if (convertible >= 200_000)
        transfer(lastWorking, 'usd', 'checking', convertible, convertMinor(convertible, 'USD', 'EUR', '1', String(rate)), {
          fxRate: rate,
        });
    }
  }
  // Stable sort: same-day entries keep their generation order.
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.day - b.e.day || a.i - b.i)
    .map((x) => x.e);
}

/** Rows in (date, generation) order, with ids, running balances, base amounts, statuses and timestamps. */
export function* streamTransactions(
  rng: Prng,
  w: DemoWindow,
  plan: LedgerPlan,
  accounts: readonly DemoAccount[],
  baseCurrency: string,
  makeId: MakeId,
): Generator<TxRow> {
  const byKey = new Map(accounts.map((a) => [a.key, a] as const));
  const balance = new Map<AccountKey, number>(accounts.map((a) => [a.key, 0]));
  const srng = rng.fork('status');
  const frng = rng.fork('filler');
  let counter = 0;
  let skel = 0;
  const skeleton = plan.skeleton;

  // The exact conversion every base amount uses (src-shared/domain/fx.ts), at the month's rate: the rates the demo
  // stores in fx_rates (on each month's first day), so a recomputation from the table gives the same figures.
  const perUsd = (currency: string, monthIndex: number): string | null =>
    currency === 'USD' ? '1' : currency === 'EUR' ? String(plan.fx.get(monthIndex)!) : null;
  const baseOf = (amount: number, currency: string, monthIndex: number): number | null => {
    const from = perUsd(currency, monthIndex);
    const to = perUsd(baseCurrency, monthIndex);
    return from === null || to === null ? null : convertMinor(amount, currency, baseCurrency, from, to);
  };

  const statusFor = (day: EpochDay, card: boolean): string => {
    const age = w.asOf - day;
    if (card && age < 2) return 'pending';
    const r = srng.next();
    if (age > 90) return r < 0.55 ? 'exported' : r < 0.75 ? 'completed' : r < 0.99 ? 'posted' : card ? 'excluded' : 'archived';
    if (age > 20) return r < 0.45 ? 'completed' : 'posted';
    return r < 0.15 ? 'completed' : 'posted';
  };

  function* emit(day: EpochDay, monthIndex: number, legs: readonly Leg[]): Generator<TxRow> {
    const ids = legs.map(() => makeId());
    for (let i = 0; i < legs.length; i++) {
      const l = legs[i]!;
      const a = byKey.get(l.account)!;
      const bal = balance.get(l.account)! + l.amountMinor;
      balance.set(l.account, bal);
      const base = baseOf(l.amountMinor, a.currency, monthIndex);
      const status = l.status ?? statusFor(day, l.method === 'card_purchase' || l.method === 'card_atm');
      const createdAt = stamp(w, day, l.time);
      const updatedAt =
        status === 'completed' || status === 'exported' || status === 'archived'
          ? stamp(w, day + 1 + srng.int(0, 14), l.time)
          : createdAt;
      const metadata = legs.length === 2 ? { ...l.metadata, transferPairId: ids[1 - i] } : l.metadata;
      counter++;
      yield {
        id: ids[i]!,
        internalId: `${a.code}-${isoDay(day).replaceAll('-', '')}-${counter.toString(36).padStart(5, '0')}`,
        bankAccountId: a.id,
        name: l.name,
        description: l.description,
        method: l.method,
        amountMinor: l.amountMinor,
        currency: a.currency,
        balanceMinor: bal,
        baseAmountMinor: base,
        baseCurrency: base === null ? null : baseCurrency,
        counterpartyName: l.counterparty,
        merchantName: l.merchant,
        date: isoDay(day),
        status,
        internal: l.internal,
        recurring: l.recurring,
        manual: l.manual,
        frequency: l.frequency,
        categorySlug: l.category,
        metadata: metadata ? JSON.stringify(metadata) : '{}',
        notified: w.asOf - day > 1,
        createdAt,
        updatedAt,
        tags: l.tags,
      };
    }
  }

  const cardLeg = (account: 'checking' | 'usd', m: Merchant, amount: number): Leg => ({
    account,
    amountMinor: -amount,
    name: m.name,
    description: `${m.method === 'card_atm' ? 'ATM' : 'Card'} ****${account === 'usd' ? '7730' : '4821'} ${m.name}`,
    method: m.method ?? 'card_purchase',
    counterparty: m.name,
    merchant: m.name,
    category: m.category,
    recurring: false,
    frequency: null,
    manual: false,
    internal: false,
    tags: m.tags && frng.chance(0.5) ? m.tags : [],
    metadata: null,
    time: frng.int(8 * 3600, 21 * 3600),
  });

  for (const f of plan.filler) {
    const m = f.month;
    const lastDay = Math.min(m.last, w.asOf);
    const spring = [3, 4, 5, 6, 9, 10, 11].includes(m.month);
    const q4 = m.month >= 10;
    const weightOf = (x: Merchant) =>
      x.weight *
      (spring && (x.category === 'travel' || x.category === 'accommodation') ? 1.6 : 1) *
      (q4 && x.category === 'advertising' ? 2.2 : 1);
    // Systematic allocation of the month's rows over its days, weekdays weighing more than weekends.
    const dayWeight = (d: EpochDay) => (isWeekend(d) ? (weekday(d) === 6 ? 0.35 : 0.12) : 1);
    let totalWeight = 0;
    for (let d = m.first; d <= lastDay; d++) totalWeight += dayWeight(d);
    const perDay = (count: number) => {
      const out: number[] = [];
      let cum = 0;
      let given = 0;
      for (let d = m.first; d <= lastDay; d++) {
        cum += dayWeight(d);
        const upto = d === lastDay ? count : Math.floor((count * cum) / totalWeight);
        out.push(upto - given);
        given = upto;
      }
      return out;
    };
    const eurDays = perDay(f.actual.checking);
    const usdDays = perDay(f.actual.usd);
    const eurScale = f.actual.checking ? f.natural.checking / f.actual.checking : 1;
    const usdScale = f.actual.usd ? f.natural.usd / f.actual.usd : 1;
    for (let d = m.first; d <= lastDay; d++) {
      while (skel < skeleton.length && skeleton[skel]!.day === d) yield* emit(d, m.index, skeleton[skel++]!.legs);
      const k = d - m.first;
      for (let i = eurDays[k]!; i > 0; i--) {
        const merchant = frng.weighted(MERCHANTS, weightOf);
        const amount = Math.max(1, Math.round(frng.logNormal(merchant.median, merchant.sigma) * eurScale));
        yield* emit(d, m.index, [cardLeg('checking', merchant, amount)]);
      }
      for (let i = usdDays[k]!; i > 0; i--) {
        const merchant = frng.weighted(USD_MERCHANTS, (x) => x.weight);
        const amount = Math.max(1, Math.round(frng.logNormal(merchant.median, merchant.sigma) * usdScale));
        yield* emit(d, m.index, [cardLeg('usd', merchant, amount)]);
      }
    }
  }
  if (skel !== skeleton.length) throw new Error(`ledger: ${skeleton.length - skel} skeleton entries outside the window`);
}

/** Each account's balance after the whole stream (the seeder writes it to bank_accounts.balance_minor). */
export type Balances = Map<AccountKey, number>;
