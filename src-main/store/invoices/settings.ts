import type { Dunning, InvoiceTemplate, TemplateInput } from '../../../src-shared/contract/invoices';
import type { Db } from '../db';
import { Conflict } from '../errors';
import { nowIso } from '../ids';
import { TEAM_REMOTE_SQL } from '../team-remote-sql';
import { plainTemplateInput } from './editor-fields';

/**
 * A team's invoice settings: the number sequence and the defaults every new invoice starts from (its template).
 * Numbers are handed out inside the invoice's own write (one IMMEDIATE transaction holds the database's write lock),
 * so two creates — in one process or two — never get the same number; the unique index (team, number) is the
 * backstop. Decision: docs/decisions/0073-invoice-numbers.md.
 */

interface SettingsRow {
  team_id: string;
  number_prefix: string;
  number_width: number;
  next_number: number | null;
  template: string;
  /** The reminder levels (JSON, migration 027); null: none. */
  dunning: string | null;
  updated_at: string;
}

export interface InvoiceSettingsRecord {
  numberPrefix: string;
  numberWidth: number;
  nextNumber: number;
  template: InvoiceTemplate;
  dunning: Dunning;
}

export const NO_DUNNING: Dunning = { levels: [], automatic: false };

/** The team's reminder levels as stored (docs/decisions/0122); none set: no levels, sent by hand. */
export function dunningOf(r: Pick<SettingsRow, 'dunning'> | undefined): Dunning {
  if (!r?.dunning) return NO_DUNNING;
  try {
    const v = JSON.parse(r.dunning) as Partial<Dunning>;
    return {
      levels: Array.isArray(v.levels)
        ? v.levels.filter((l) => Number.isInteger(l?.daysAfterDue) && typeof l?.fee === 'number')
        : [],
      automatic: v.automatic === true,
    };
  } catch {
    return NO_DUNNING;
  }
}

export function teamDunning(db: Db, teamId: string): Dunning {
  return dunningOf(row(db, teamId));
}

/** Template defaults when neither the team settings nor the request say otherwise. */
export function baseTemplate(currency: string): InvoiceTemplate {
  return {
    currency,
    locale: 'en-GB',
    dateFormat: 'dd/MM/yyyy',
    timezone: 'UTC',
    paymentTermsDays: 30,
    includeVat: true,
    includeTax: false,
    includeDiscount: false,
    vatRate: 0,
    taxRate: 0,
    size: 'a4',
    title: null,
    fromDetails: null,
    customerDetails: null,
    paymentDetails: null,
    vatLabel: null,
    taxLabel: null,
    vatExemptionReason: null,
  };
}

/** A stored template (possibly partial: demo data, older rows) over the defaults; unknown keys are kept. */
export function resolveTemplate(stored: unknown, defaults: InvoiceTemplate): InvoiceTemplate {
  const t = { ...defaults } as Record<string, unknown>;
  if (stored && typeof stored === 'object') {
    for (const [k, v] of Object.entries(stored as Record<string, unknown>)) {
      if (v === undefined || k === 'deliveryType') continue;
      // null only clears what may be null (the text fields); a null rate or flag keeps the default.
      if (v === null && (defaults as Record<string, unknown>)[k] !== null) continue;
      t[k] = v;
    }
  }
  return t as InvoiceTemplate;
}

/** Applies a (partial) template input over a template: undefined keeps, null clears a text field. */
export function mergeTemplate(base: InvoiceTemplate, input: TemplateInput | undefined): InvoiceTemplate {
  if (!input) return base;
  const out = { ...base } as Record<string, unknown>;
  for (const [k, v] of Object.entries(input)) if (v !== undefined) out[k] = v;
  return out as InvoiceTemplate;
}

function teamCurrency(db: Db, teamId: string): string {
  const row = db.prepare('SELECT base_currency FROM teams WHERE id = ?').get(teamId) as { base_currency: string } | undefined;
  return row?.base_currency ?? 'EUR';
}

function row(db: Db, teamId: string): SettingsRow | undefined {
  return db.prepare('SELECT * FROM invoice_settings WHERE team_id = ?').get(teamId) as SettingsRow | undefined;
}

function save(db: Db, teamId: string, values: { prefix: string; width: number; next: number | null; template: string }): void {
  db.prepare(
    `INSERT INTO invoice_settings (team_id, number_prefix, number_width, next_number, template, updated_at)
     VALUES (@team, @prefix, @width, @next, @template, @now)
     ON CONFLICT (team_id) DO UPDATE SET number_prefix = excluded.number_prefix, number_width = excluded.number_width,
       next_number = excluded.next_number, template = excluded.template, updated_at = excluded.updated_at`,
  ).run({ team: teamId, ...values, now: nowIso() });
}

/** The highest number already used with this prefix (digits right after it), so a sequence starts after the demo's. */
function highestTaken(db: Db, teamId: string, prefix: string): number {
  const value = db
    .prepare(
      `SELECT max(CAST(substr(invoice_number, @len + 1) AS INTEGER)) FROM invoices
       WHERE team_id = @team AND substr(invoice_number, 1, @len) = @prefix
         AND length(invoice_number) > @len AND substr(invoice_number, @len + 1) NOT GLOB '*[^0-9]*'`,
    )
    .pluck()
    .get({ team: teamId, len: prefix.length, prefix }) as number | null;
  return value ?? 0;
}

export function getInvoiceSettings(db: Db, teamId: string): InvoiceSettingsRecord {
  const r = row(db, teamId);
  const prefix = r?.number_prefix ?? 'INV-';
  return {
    numberPrefix: prefix,
    numberWidth: r?.number_width ?? 4,
    nextNumber: r?.next_number ?? highestTaken(db, teamId, prefix) + 1,
    template: resolveTemplate(r ? JSON.parse(r.template) : {}, baseTemplate(teamCurrency(db, teamId))),
    dunning: dunningOf(r),
  };
}

/**
 * The locale and date format the team chose for its documents (its invoice settings), when it chose them: what a
 * statement requested by a key acting for no user is printed in.
 */
export function chosenDocumentFormat(db: Db, teamId: string): { locale?: string; dateFormat?: string } {
  const r = row(db, teamId);
  let stored: { locale?: unknown; dateFormat?: unknown } = {};
  try {
    stored = r ? (JSON.parse(r.template) as typeof stored) : {};
  } catch {
    stored = {};
  }
  return {
    locale: typeof stored.locale === 'string' ? stored.locale : undefined,
    dateFormat: typeof stored.dateFormat === 'string' ? stored.dateFormat : undefined,
  };
}

export interface SettingsPatch {
  numberPrefix?: string;
  numberWidth?: number;
  nextNumber?: number;
  template?: TemplateInput;
  dunning?: Dunning;
}

export function updateInvoiceSettings(db: Db, teamId: string, patch: SettingsPatch): InvoiceSettingsRecord {
  return db
    .transaction(() => {
      const current = getInvoiceSettings(db, teamId);
      const r = row(db, teamId);
      const storedTemplate = r ? (JSON.parse(r.template) as Record<string, unknown>) : {};
      // The team's defaults keep the hosted editor's blocks as their plain text.
      for (const [k, v] of Object.entries(plainTemplateInput(patch.template) ?? {})) if (v !== undefined) storedTemplate[k] = v;
      const prefixChanged = patch.numberPrefix !== undefined && patch.numberPrefix !== current.numberPrefix;
      const next = patch.nextNumber ?? (prefixChanged || !r ? null : r.next_number);
      save(db, teamId, {
        prefix: patch.numberPrefix ?? current.numberPrefix,
        width: patch.numberWidth ?? current.numberWidth,
        next,
        template: JSON.stringify(storedTemplate),
      });
      if (patch.dunning) {
        db.prepare('UPDATE invoice_settings SET dunning = ? WHERE team_id = ?').run(JSON.stringify(patch.dunning), teamId);
      }
      return getInvoiceSettings(db, teamId);
    })
    .immediate();
}

/** The stored number of an invoice that waits for the number its team's sync remote gives it (0143). */
export const NO_NUMBER = '';

/**
 * Whether this store numbers the team's invoices: yes unless the team syncs with a remote, which then numbers every
 * invoice when it is first pushed, so that replicas working offline never hand out the same number twice
 * (docs/decisions/0143-invoice-sync.md).
 */
export function numbersInvoicesHere(db: Db, teamId: string): boolean {
  return db.prepare(TEAM_REMOTE_SQL).get(teamId) === undefined;
}

export function isNumberTaken(db: Db, teamId: string, invoiceNumber: string, exceptId?: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM invoices WHERE team_id = ? AND invoice_number = ? AND id IS NOT ?')
      .get(teamId, invoiceNumber, exceptId ?? null) !== undefined
  );
}

export function assertNumberFree(db: Db, teamId: string, invoiceNumber: string, exceptId?: string): void {
  if (isNumberTaken(db, teamId, invoiceNumber, exceptId)) {
    throw new Conflict(`Invoice number ${invoiceNumber} is already taken`, 'invoice numbers are unique per team');
  }
}

/**
 * The next free number of the team's sequence, taken: call inside the write that inserts the invoice. Numbers
 * someone set by hand are skipped.
 */
export function takeInvoiceNumber(db: Db, teamId: string): string {
  const s = getInvoiceSettings(db, teamId);
  let n = s.nextNumber;
  let candidate = format(s.numberPrefix, s.numberWidth, n);
  while (isNumberTaken(db, teamId, candidate)) {
    n++;
    candidate = format(s.numberPrefix, s.numberWidth, n);
  }
  // The prefix, width and template stay as they are (those of a team without settings yet are the defaults).
  save(db, teamId, { prefix: s.numberPrefix, width: s.numberWidth, next: n + 1, template: row(db, teamId)?.template ?? '{}' });
  return candidate;
}

function format(prefix: string, width: number, n: number): string {
  return `${prefix}${String(n).padStart(width, '0')}`;
}
