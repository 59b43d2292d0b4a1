/**
 * `finops demo`'s engine: plans the demo data set (see the generator modules' headers and
 * docs/decisions/0005-demo-data.md). Pure: no I/O. write.ts writes it into a team (through the store's bulk seeder);
 * with positional bulk inserts and time-ordered ids a million transactions take seconds.
 */

import type { SeedSummary } from '../store/demo/seed-records';
import { type DemoAccount, type Employee, generateAccounts, generateEmployees, revenueCapacity } from './accounts';
import { type EpochDay, isoDay, parseDay, todayUtc } from './calendar';
import { type DemoWindow, demoWindow, type MakeId } from './context';
import { type DemoCustomer, generateCustomers } from './customers';
import { bulkIdMaker } from './ids';
import { type DemoInvoice, generateInvoices } from './invoices';
import { type LedgerPlan, planLedger } from './ledger';
import { type DemoNotification, generateNotifications } from './notifications';
import { Prng } from './prng';
import { type DemoEntry, type DemoProject, generateEntries, generateProjects } from './tracker';

export const DEFAULT_SEED = '1';

export interface DemoOptions {
  seed?: string;
  /** YYYY-MM-DD: the last day of the data set (default today, UTC). */
  asOf?: string;
  /** Exact number of transactions; default: the natural count (~3,000). */
  transactions?: number;
  makeId?: MakeId;
}

/** Everything except the transactions themselves, which are streamed from the plan while writing. */
export interface DemoDataSet {
  seed: string;
  window: DemoWindow;
  baseCurrency: string;
  rng: Prng;
  makeId: MakeId;
  accounts: DemoAccount[];
  employees: Employee[];
  customers: DemoCustomer[];
  invoices: DemoInvoice[];
  projects: DemoProject[];
  entries: DemoEntry[];
  notifications: DemoNotification[];
  ledger: LedgerPlan;
}

/** Builds the data set in memory (cheap: no transactions yet). Throws LedgerTooSmall when N is below the skeleton. */
export function planDemo(options: DemoOptions & { baseCurrency?: string } = {}): DemoDataSet {
  const seed = options.seed ?? DEFAULT_SEED;
  const makeId = options.makeId ?? bulkIdMaker();
  const rng = new Prng(seed);
  const window = demoWindow(parseDay(options.asOf ?? todayUtc()));
  const accounts = generateAccounts(rng.fork('accounts'), makeId);
  const employees = generateEmployees(rng.fork('employees'), window);
  const customers = generateCustomers(rng.fork('customers'), window, makeId);
  const invoices = generateInvoices(rng.fork('invoices'), window, customers, (m) => revenueCapacity(employees, m), makeId);
  const projects = generateProjects(rng.fork('projects'), window, invoices, makeId);
  const entries = generateEntries(rng.fork('entries'), window, projects, employees, makeId);
  const notifications = generateNotifications(rng.fork('notifications'), window, invoices, customers, entries, makeId);
  const ledger = planLedger(rng.fork('ledger'), window, accounts, employees, invoices, options.transactions);
  return {
    seed,
    window,
    baseCurrency: options.baseCurrency ?? 'EUR',
    rng,
    makeId,
    accounts,
    employees,
    customers,
    invoices,
    projects,
    entries,
    notifications,
    ledger,
  };
}

export function formatSummary(team: string, s: SeedSummary & { workflows?: number }, seed: string, asOf: EpochDay): string {
  return (
    `${team}: ${s.bankAccounts} bank accounts, ${s.customers} customers, ${s.tags} tags, ${s.categories} categories, ` +
    `${s.transactions} transactions, ${s.invoices} invoices, ${s.trackerProjects} tracker projects, ${s.trackerEntries} tracker entries, ` +
    `${s.notifications} notifications${s.workflows ? `, ${s.workflows} workflows` : ''} (seed ${JSON.stringify(seed)}, as of ${isoDay(asOf)})`
  );
}
