/**
 * The agency's three bank accounts, in two currencies, and its people (for payroll and time tracking).
 *
 * - Business checking (EUR): client payments in EUR, payroll, rent, subscriptions, card spend.
 * - Tax reserve savings (EUR): a monthly reserve transfer in, VAT and corporate-tax payments out, interest.
 * - USD account: payments from US clients, US-billed subscriptions, some card spend; converted to EUR each quarter.
 *
 * Balances start at zero and each account's first transaction is its opening balance on the window's first day
 * (status `excluded`, so reports do not count it as income); `bank_accounts.balance_minor` ends up as the sum of the
 * account's transactions.
 */

import type { EpochDay, Month } from './calendar';
import { FIRST_NAMES, LAST_NAMES } from './catalog';
import type { DemoWindow, MakeId } from './context';
import type { Prng } from './prng';

export type AccountKey = 'checking' | 'savings' | 'usd';

export interface DemoAccount {
  key: AccountKey;
  id: string;
  name: string;
  type: 'depository';
  currency: 'EUR' | 'USD';
  institutionId: string;
  institutionName: string;
  connectionName: string;
  /** Short code used in transactions' internal ids. */
  code: string;
  openingMinor: number;
}

export function generateAccounts(rng: Prng, makeId: MakeId): DemoAccount[] {
  return [
    {
      key: 'checking',
      id: makeId(),
      name: 'Business Checking',
      type: 'depository',
      currency: 'EUR',
      institutionId: 'demo_hansa_bank',
      institutionName: 'Hansa Bank (demo)',
      connectionName: 'Hansa Bank',
      code: 'CHK',
      openingMinor: rng.int(140, 170) * 100_000,
    },
    {
      key: 'savings',
      id: makeId(),
      name: 'Tax Reserve Savings',
      type: 'depository',
      currency: 'EUR',
      institutionId: 'demo_hansa_bank',
      institutionName: 'Hansa Bank (demo)',
      connectionName: 'Hansa Bank',
      code: 'SAV',
      openingMinor: rng.int(20, 35) * 100_000,
    },
    {
      key: 'usd',
      id: makeId(),
      name: 'USD Account',
      type: 'depository',
      currency: 'USD',
      institutionId: 'demo_atlantic_business',
      institutionName: 'Atlantic Business Bank (demo)',
      connectionName: 'Atlantic Business Bank',
      code: 'USD',
      openingMinor: rng.int(15, 25) * 100_000,
    },
  ];
}

export interface Employee {
  name: string;
  role: 'designer' | 'developer' | 'strategist' | 'office';
  /** Gross monthly salary, EUR minor units. */
  grossMinor: number;
  start: EpochDay;
  end: EpochDay | null;
  billable: boolean;
}

/** 8 people at the start of the window, a few hires as the agency grows, one departure. */
export function generateEmployees(rng: Prng, w: DemoWindow): Employee[] {
  const names = new Set<string>();
  const person = () => {
    for (;;) {
      const n = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
      if (!names.has(n)) {
        names.add(n);
        return n;
      }
    }
  };
  const roles: Employee['role'][] = [
    'strategist',
    'designer',
    'designer',
    'developer',
    'developer',
    'developer',
    'office',
    'designer',
  ];
  const span = w.asOf - w.first;
  const people: Employee[] = roles.map((role) => ({
    name: person(),
    role,
    grossMinor: (role === 'office' ? rng.int(36, 44) : rng.int(46, 68)) * 10_000,
    start: w.first - rng.int(100, 1500),
    end: null,
    billable: role !== 'office',
  }));
  for (const [role, at] of [
    ['developer', 0.25],
    ['designer', 0.5],
    ['developer', 0.72],
  ] as const) {
    people.push({
      name: person(),
      role,
      grossMinor: rng.int(55, 72) * 10_000,
      start: w.first + Math.round(span * at) + rng.int(-20, 20),
      end: null,
      billable: true,
    });
  }
  const leaver = people[rng.int(1, 5)]!;
  leaver.end = w.first + Math.round(span * rng.real(0.4, 0.6));
  return people;
}

export function employed(e: Employee, day: EpochDay): boolean {
  return e.start <= day && (e.end === null || day <= e.end);
}

/**
 * What the team can bill in a month (EUR minor, ex VAT): its gross payroll × 1.2 (employer's social costs) × 1.45
 * (rent, tools, overheads and a margin). Drives the invoice volume.
 */
export function revenueCapacity(employees: readonly Employee[], m: Month): number {
  const gross = employees.filter((e) => employed(e, m.first + 14)).reduce((s, e) => s + e.grossMinor, 0);
  return gross * 1.2 * 1.45;
}
