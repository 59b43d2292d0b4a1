/**
 * Stress-test drivers as the builder edits them (text per input, so a half-typed number is kept) and as the API
 * takes them, plus the mapping of the server's field errors (`drivers.2.pct`) back to the input that caused them.
 * Pure: tested in test/renderer/screens/runway/drivers.test.ts.
 */
import type { FieldError } from '../../../src-shared/contract/errors';

export const DRIVER_KINDS = [
  'RevenueShock',
  'CollectionDelay',
  'ExpenseSurge',
  'OneTimeExpense',
  'HiringPlan',
  'FxShock',
] as const;
export type DriverKind = (typeof DRIVER_KINDS)[number];

export interface DriverDraft {
  key: number;
  kind: DriverKind;
  values: Record<string, string>;
}

const DEFAULTS: Record<DriverKind, Record<string, string>> = {
  RevenueShock: { pct: '-20', months: '3', startOffset: '0' },
  CollectionDelay: { days: '30' },
  ExpenseSurge: { pct: '10', months: '', startMonthOffset: '0' },
  OneTimeExpense: { amount: '10000', date: '' },
  HiringPlan: { headcountDelta: '2', monthlyCostPerHead: '6000', startMonthOffset: '1', rampMonths: '1' },
  FxShock: { base: 'USD', pct: '-10' },
};

/** The inputs a driver cannot go without (the rest have defaults on the server). */
const REQUIRED: Record<DriverKind, readonly string[]> = {
  RevenueShock: ['pct', 'months'],
  CollectionDelay: ['days'],
  ExpenseSurge: ['pct'],
  OneTimeExpense: ['amount', 'date'],
  HiringPlan: ['headcountDelta', 'monthlyCostPerHead'],
  FxShock: ['base', 'pct'],
};

/**
 * What the builder can say before asking the server: each required input left empty, keyed like the server's errors
 * (`'2.date'`), said in the person's words (`message(name)`) instead of the server's schema path.
 */
export function missingInputs(drafts: readonly DriverDraft[], message: (input: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  drafts.forEach((d, i) => {
    for (const k of REQUIRED[d.kind]) if (!(d.values[k] ?? '').trim()) out[`${i}.${k}`] = message(k);
  });
  return out;
}

/** Which inputs are numbers (the rest are sent as text). */
const TEXT_FIELDS = new Set(['date', 'base']);

let nextKey = 1;
export function newDriver(kind: DriverKind): DriverDraft {
  return { key: nextKey++, kind, values: { ...DEFAULTS[kind] } };
}

/**
 * The API's drivers: empty optional inputs left out; numbers as typed (an unparsable one is sent as is, as text, so
 * the server names it at its field rather than the builder guessing).
 */
export function toDrivers(drafts: readonly DriverDraft[]): Record<string, unknown>[] {
  return drafts.map((d) => {
    if (d.kind === 'FxShock') {
      return { kind: d.kind, pairs: [{ base: d.values.base ?? '', pct: num(d.values.pct ?? '') }] };
    }
    const out: Record<string, unknown> = { kind: d.kind };
    for (const [k, v] of Object.entries(d.values)) {
      if (v.trim() === '') continue;
      out[k] = TEXT_FIELDS.has(k) ? v : num(v);
    }
    return out;
  });
}

function num(v: string): number | string {
  const n = Number(v.replace(',', '.'));
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}

/** A saved test's driver (as sent) back into the builder. */
export function fromSent(sent: Record<string, unknown>): DriverDraft {
  const kind = (sent.kind ?? sent.type) as DriverKind;
  const d = newDriver(DRIVER_KINDS.includes(kind) ? kind : 'RevenueShock');
  if (kind === 'FxShock') {
    const pair = (sent.pairs as { base?: string; pct?: number }[] | undefined)?.[0];
    d.values = { base: pair?.base ?? '', pct: pair?.pct === undefined ? '' : String(pair.pct) };
    return d;
  }
  d.values = Object.fromEntries(Object.keys(DEFAULTS[d.kind]).map((k) => [k, sent[k] === undefined ? '' : String(sent[k])]));
  return d;
}

/** `drivers.1.pct` → `{'1.pct': message}`; an FX pair's `drivers.0.pairs.0.base` → `'0.base'`; the rest above the form. */
export function driverErrors(fields: readonly FieldError[]): { fields: Record<string, string>; rest: string | null } {
  const out: Record<string, string> = {};
  const rest: string[] = [];
  for (const f of fields) {
    const m = /^drivers\.(\d+)\.(?:pairs\.\d+\.)?([A-Za-z]+)$/.exec(f.path);
    const message = f.message.charAt(0).toUpperCase() + f.message.slice(1);
    if (m) out[`${m[1]}.${m[2]}`] ??= message;
    else rest.push(f.path ? `${f.path}: ${f.message}` : message);
  }
  return { fields: out, rest: rest.length ? rest.join('; ') : null };
}
