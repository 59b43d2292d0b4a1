/**
 * The records the bulk seeder (bulk-seed.ts) writes: already formed, one per row, carrying their columns' values —
 * booleans as booleans, JSON columns as JSON text, days as YYYY-MM-DD, instants as ISO text.
 */

export interface SeedTag {
  id: string;
  name: string;
  createdAt: string;
}

/** A bank connection's account, enabled; its balance is the sum of its seeded transactions. */
export interface SeedBankAccount {
  id: string;
  name: string;
  type: string;
  currency: string;
  institutionId: string;
  institutionName: string;
  connectionId: string;
  connectionName: string;
  expiresAt: string | null;
  /** The IBAN invoices are paid to (the demo's checking account). */
  iban?: string | null;
  createdAt: string;
}

export interface SeedCustomer {
  id: string;
  name: string;
  email: string;
  billingEmail: string | null;
  phone: string;
  website: string;
  contact: string;
  country: string;
  countryCode: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string | null;
  zip: string;
  vatNumber: string | null;
  peppolId: string | null;
  note: string | null;
  tagIds: readonly string[];
  createdAt: string;
}

export interface SeedInvoice {
  id: string;
  customerId: string;
  customerName: string;
  invoiceNumber: string;
  status: string;
  currency: string;
  subtotalMinor: number;
  vatMinor: number;
  taxMinor: number;
  discountMinor: number;
  amountMinor: number;
  issueDate: string;
  dueDate: string;
  sentAt: string | null;
  paidAt: string | null;
  /** When a scheduled invoice goes out (the product's rule: a scheduled invoice has one); null otherwise. */
  scheduledAt: string | null;
  /** JSON text. */
  lineItems: string;
  /** JSON text. */
  template: string;
  note: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SeedProject {
  id: string;
  name: string;
  description: string;
  estimateHours: number;
  billable: boolean;
  rateMinor: number | null;
  currency: string | null;
  status: string;
  customerId: string | null;
  tagIds: readonly string[];
  createdAt: string;
  updatedAt: string;
}

export interface SeedEntry {
  id: string;
  projectId: string;
  date: string;
  start: string;
  stop: string;
  durationSeconds: number;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SeedNotification {
  id: string;
  type: string;
  priority: number;
  source: string;
  status: string;
  /** JSON text. */
  metadata: string;
  lastUsedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An exchange rate: units of `currency` per 1 USD on `day`, as decimal text. */
export interface SeedRate {
  currency: string;
  day: string;
  perUsd: string;
}

export interface SeedTransaction {
  id: string;
  internalId: string;
  bankAccountId: string;
  name: string;
  description: string | null;
  method: string;
  amountMinor: number;
  currency: string;
  balanceMinor: number;
  baseAmountMinor: number | null;
  baseCurrency: string | null;
  counterpartyName: string | null;
  merchantName: string | null;
  date: string;
  status: string;
  internal: boolean;
  recurring: boolean;
  manual: boolean;
  frequency: string | null;
  categorySlug: string;
  /** JSON text. */
  metadata: string;
  notified: boolean;
  createdAt: string;
  updatedAt: string;
  reviewState: string;
  fulfilled: boolean;
  tagIds: readonly string[];
}

export interface SeedRecords {
  /** The clock of every write: the change feed's time, and the rates' import time. */
  now: string;
  /** The team's default taxonomy (ensureDefaultCategories), created first. */
  categories: { countryCode: string; createdAt: string; makeId: () => string };
  tags: readonly SeedTag[];
  bankAccounts: readonly SeedBankAccount[];
  customers: readonly SeedCustomer[];
  invoices: readonly SeedInvoice[];
  projects: readonly SeedProject[];
  entries: readonly SeedEntry[];
  notifications: readonly SeedNotification[];
  /** Rates already in the table (imported by the user) are kept. */
  rates: { source: string; rows: readonly SeedRate[] };
  /** Read lazily, batch by batch (a million rows need not be in memory); `total` is how many `rows` yields. */
  transactions: { rows: Iterable<SeedTransaction>; total: number };
}

export interface SeedSummary {
  categories: number;
  tags: number;
  bankAccounts: number;
  customers: number;
  transactions: number;
  invoices: number;
  trackerProjects: number;
  trackerEntries: number;
  notifications: number;
}
