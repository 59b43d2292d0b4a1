/**
 * A failed e-invoice rule as a person reads it (docs/decisions/0160-e-invoices.md): the server names each failure
 * by its rule id and its field ("BR-AE-02", "BT-48 customer.vatNumber") with a message in English; the screen says
 * it in the user's language from the `einvoice` catalogue, names the field as the forms do ("Customer › VAT
 * number"), and knows where it is fixed: the customer's form, the team's e-invoice settings, the other team settings,
 * or the invoice itself. A rule the catalogue does not know (the XSD's, a newer server's) keeps the server's words.
 * Pure: table-tested in test/renderer/screens/invoices/einvoice-failures.test.ts.
 */
import type { RuleFailure } from '../../../src-shared/contract/errors';
import { REQUIREMENT_RULES } from '../../../src-shared/domain/invoice-requirements';

/** The customer form's inputs a rule (or the choice of a format) can point at. */
export type CustomerFixField =
  | 'eInvoiceFormat'
  | 'name'
  | 'vatNumber'
  | 'peppolId'
  | 'buyerReference'
  | 'addressLine1'
  | 'city'
  | 'zip'
  | 'countryCode';

/** The team's e-invoice settings (src-renderer/screens/settings/EInvoiceSettings.tsx). */
export type TeamFixField = 'eInvoiceFormat' | 'peppolId' | 'email' | 'phone';

export type FixTarget =
  | { kind: 'customer'; field: CustomerFixField }
  | { kind: 'team'; field: TeamFixField }
  /** A team field of another settings panel: its name, VAT number, address, a bank account's IBAN. */
  | { kind: 'settings'; path: '/team-settings' | '/team-settings?tab=accounts' | '/team-settings?tab=invoices' }
  /** The invoice's own lines, dates or amounts. */
  | { kind: 'invoice' };

export interface FailureView {
  rule: string;
  /** The business term, "BT-48"; null for a field that names none (the XSD's path, FD-TAX). */
  term: string | null;
  /** The field's label key in the `einvoice` catalogue; null: show `rawField`. */
  fieldKey: string | null;
  rawField: string;
  /** The message's key in the `einvoice` catalogue; null: show `message`, the server's English. */
  messageKey: string | null;
  /** Placeholders of both keys: `line` (from 1), `category` (a key of `einvoice:categories`). */
  vars: { line?: number; category?: string };
  message: string;
  fix: FixTarget;
}

/** Peppol's check-digit rules of identifier schemes (src-shared/validation/identifier-check-digits.ts). */
const PEPPOL_CHECK_DIGIT_RULES = ['R040', 'R041', 'R042', 'R043', 'R049', 'R050'].map((n) => `PEPPOL-COMMON-${n}`);

/** Every rule id the catalogue words (a test holds it to the server's RULE_IDS). */
export const WORDED_RULES: ReadonlySet<string> = new Set([
  ...['02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '16', '21', '22', '23', '25', '27'].map((n) => `BR-${n}`),
  ...['04', '09', '10', '11', '12', '13', '14', '15', '16', '18', '25', '26'].map((n) => `BR-CO-${n}`),
  'BR-53',
  'BR-55',
  'BR-61',
  'BR-62',
  'BR-63',
  'BR-IC-11',
  'BR-IC-12',
  'BR-DEC-09',
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '15', '16'].map((n) => `BR-DE-${n}`),
  'XR-BT-34',
  'XR-BT-49',
  'PEPPOL-EN16931-R003',
  'PEPPOL-EN16931-R010',
  'PEPPOL-EN16931-R020',
  'FD-PEPPOL-ID',
  ...PEPPOL_CHECK_DIGIT_RULES,
  'FD-TAX',
  // What every invoice must state (src-shared/domain/invoice-requirements.ts, docs/decisions/0121).
  ...REQUIREMENT_RULES,
]);

/** Rules that say something else for the team and for the customer: their key ends in `.team` or `.customer`. */
const BY_PARTY: ReadonlySet<string> = new Set(['BR-CO-09', 'FD-PEPPOL-ID', ...PEPPOL_CHECK_DIGIT_RULES]);

/** The per-category rules: BR-S-01…, BR-AE-10, BR-IC-02 (K, intra-community supply). */
const CATEGORY_RULE = /^BR-(S|Z|E|AE|IC|G)-(\d\d)$/;

const CUSTOMER_FIELDS: Readonly<Record<string, CustomerFixField>> = {
  name: 'name',
  vatNumber: 'vatNumber',
  peppolId: 'peppolId',
  buyerReference: 'buyerReference',
  address: 'addressLine1',
  city: 'city',
  zip: 'zip',
  countryCode: 'countryCode',
};

const TEAM_FIELDS: ReadonlySet<string> = new Set(['peppolId', 'email', 'phone']);

/** The fields the catalogue names (`einvoice:field.<path>`), a line's with `*` for its index. */
const NAMED_FIELDS: ReadonlySet<string> = new Set([
  ...[
    'name',
    'vatNumber',
    'taxNumber',
    'legalRegistrationId',
    'peppolId',
    'email',
    'phone',
    'address',
    'city',
    'zip',
    'countryCode',
  ].map((f) => `team.${f}`),
  ...['name', 'vatNumber', 'peppolId', 'buyerReference', 'address', 'city', 'zip', 'countryCode'].map((f) => `customer.${f}`),
  ...['name', 'quantity', 'unit', 'price', 'vat'].map((f) => `lineItems.*.${f}`),
  'lineItems',
  'invoiceNumber',
  'issueDate',
  'typeCode',
  'currency',
  'dueDate',
  'supplyDate',
  'precedingInvoice',
  'payment',
  'tax',
  'vat',
  'subtotal',
  'discount',
  'charges',
  'amount',
  'amountDue',
  'template.vatExemptionReason',
  'vatBreakdown',
  'vatBreakdown.taxableAmount',
  'bankAccount.iban',
]);

/** `customer.vatNumber` → `field.customer.vatNumber`, `lineItems.*.price` → `field.line.price`, `bankAccount.iban` → `field.bankAccount_iban`. */
function fieldKeyOf(path: string): string | null {
  if (!NAMED_FIELDS.has(path)) return null;
  if (path.startsWith('lineItems.*.')) return `field.line.${path.slice('lineItems.*.'.length)}`;
  if (/^(team|customer)\./.test(path)) return `field.${path}`;
  return `field.${path.replace('.', '_')}`;
}

function fixOf(path: string): FixTarget {
  const [source, name = ''] = path.split('.');
  if (source === 'customer' && CUSTOMER_FIELDS[name]) return { kind: 'customer', field: CUSTOMER_FIELDS[name] };
  if (source === 'team')
    return TEAM_FIELDS.has(name) ? { kind: 'team', field: name as TeamFixField } : { kind: 'settings', path: '/team-settings' };
  if (source === 'bankAccount') return { kind: 'settings', path: '/team-settings?tab=accounts' };
  // Why no VAT is charged: the team's reason (a small business) in its invoice settings.
  if (path === 'template.vatExemptionReason') return { kind: 'settings', path: '/team-settings?tab=invoices' };
  return { kind: 'invoice' };
}

/** The message key of a per-category rule, after what it checks and, where it says two things, which. */
function categoryMessage(category: string, n: string, party: string): string | null {
  const standard = category === 'S';
  switch (n) {
    case '01':
    case '08':
      return `categoryRules.${n}`;
    case '02':
      return `categoryRules.02.${party === 'customer' ? 'customer' : 'team'}`;
    case '05':
      return `categoryRules.05.${standard ? 'positive' : 'zero'}`;
    case '09':
      return `categoryRules.09.${standard ? 'standard' : 'zero'}`;
    case '10':
      return `categoryRules.10.${standard || category === 'Z' ? 'noReason' : 'reason'}`;
    default:
      return null;
  }
}

export function failureView(failure: RuleFailure): FailureView {
  const match = /^(B[TG]-\d+)\s+(\S+)$/.exec(failure.field.trim());
  const term = match?.[1] ?? null;
  const path = match?.[2] ?? failure.field.trim();
  const lineIndex = /^lineItems\.(\d+)\./.exec(path)?.[1];
  const generic = path.replace(/^lineItems\.\d+\./, 'lineItems.*.');
  const party = path.split('.')[0] ?? '';
  const vars: FailureView['vars'] = {};
  if (lineIndex !== undefined) vars.line = Number(lineIndex) + 1;

  let messageKey: string | null = null;
  // A rule of its own words first: BR-IC-11 and -12 look like per-category rules but say something of their own.
  const category = CATEGORY_RULE.exec(failure.rule);
  if (WORDED_RULES.has(failure.rule)) {
    messageKey = BY_PARTY.has(failure.rule)
      ? `rules.${failure.rule}.${party === 'customer' ? 'customer' : 'team'}`
      : `rules.${failure.rule}`;
  } else if (category) {
    const code = category[1] === 'IC' ? 'K' : (category[1] ?? '');
    vars.category = code;
    messageKey = categoryMessage(code, category[2] ?? '', party);
  }
  return {
    rule: failure.rule,
    term,
    fieldKey: fieldKeyOf(generic),
    rawField: failure.field,
    messageKey,
    vars,
    message: failure.message,
    fix: fixOf(path),
  };
}

/** The failures grouped by where they are fixed, customer first (what a person fixes most), each in rule order. */
export function failureViews(failures: readonly RuleFailure[]): FailureView[] {
  const order: Record<FixTarget['kind'], number> = { customer: 0, team: 1, settings: 2, invoice: 3 };
  return failures
    .map(failureView)
    .map((v, i) => ({ v, i }))
    .sort((a, b) => order[a.v.fix.kind] - order[b.v.fix.kind] || a.i - b.i)
    .map(({ v }) => v);
}

/** The file name the server gives an e-invoice (its Content-Disposition), for the browser's download. */
export function eInvoiceFileName(invoiceNumber: string, format: string, creditNote: boolean): string {
  const base = `${creditNote ? 'CN-' : ''}${invoiceNumber}`.replace(/[^A-Za-z0-9._-]+/g, '_') || 'invoice';
  return format.startsWith('factur-x') ? `${base}.pdf` : `${base}-${format}.xml`;
}
