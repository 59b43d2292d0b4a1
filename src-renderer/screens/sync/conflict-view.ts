/**
 * How a conflict reads for a person: the record it is about, the fields in conflict, and each side's values as text.
 * Conflicts hold sync projections (docs/decisions/0140-sync-engine.md): amounts in integer minor units, days as
 * YYYY-MM-DD, tags as sorted id sets, categories by slug; these turn them back into what the screens show, in the
 * user's language and formats. Entities and fields the catalogue does not name (a generic remote's) read as their
 * code, made readable.
 */
import { isRemoteBaseUrl, type SyncConflictInfo } from '../../../src-shared/contract/app-sync';
import { apiLineItems } from '../../../src-shared/domain/sync/invoices';
import type { Json } from '../../../src-shared/domain/sync/merge';
import { toMajor } from '../../../src-shared/money';
import { i18n, t } from '../../i18n';
import { formatAmount, formatDate, formatDuration, formatNumber } from '../../lib/format';

type Values = Record<string, unknown>;

/** Names of referenced records the screen knows (tag ids → names), for sets of ids. */
export type NameOf = (id: string) => string | undefined;

/** An empty value: a dash in every language. */
const EMPTY = '—';

/** The catalogue's word for a code under `sync:<group>`, else the code made readable. */
function word(group: 'entities' | 'fields' | 'records', code: string, fallback: () => string): string {
  const key = `sync:${group}.${code}`;
  return i18n.exists(key) ? t(key) : fallback();
}

export function entityLabel(entity: string): string {
  return word('entities', entity, () => humanize(entity.replace(/_/g, ' ')));
}

/**
 * What names a record for a person, most telling first: a name; an invoice's number (or, before the remote numbered
 * it, its customer); a transaction's or an entry's description, counterparty or day.
 */
const NAMING_FIELDS = ['name', 'invoiceNumber', 'customerName', 'description', 'counterpartyName', 'date'] as const;

/** `Tag “Travel”`, `Invoice “INV-0578”`: the entity and what names the record on whichever side has it. */
export function recordLabel(c: Pick<SyncConflictInfo, 'entity' | 'local' | 'remote' | 'base' | 'recordId'>): string {
  const sides = [c.local, c.remote, c.base];
  const name = NAMING_FIELDS.flatMap((f) => sides.map((v) => v?.[f]))
    .map((n) => (typeof n === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(n) ? formatDate(n) : n))
    .find((n) => typeof n === 'string' && n.trim());
  const entity = entityLabel(c.entity);
  return name ? t('sync:record.named', { entity, name }) : t('sync:record.unnamed', { entity, id: c.recordId.slice(0, 8) });
}

export function fieldLabel(field: string): string {
  return word('fields', field, () => humanize(field));
}

/** The fields to show side by side: those in conflict, or (a record deleted on one side) its name. */
export function conflictFields(c: Pick<SyncConflictInfo, 'fields' | 'local' | 'remote'>): string[] {
  if (c.fields.length) return c.fields;
  const present = c.local ?? c.remote ?? {};
  return 'name' in present ? ['name'] : Object.keys(present).slice(0, 3);
}

/** One side's value of a field as text; `values` is that side's projection (null: deleted there). */
export function sideText(values: Values | null, field: string, nameOf: NameOf = () => undefined): string {
  if (values === null) return t('sync:conflicts.deleted');
  return valueText(field, values[field], values, nameOf);
}

export function valueText(field: string, value: unknown, record: Values, nameOf: NameOf = () => undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (typeof value === 'boolean') return value ? t('sync:values.yes') : t('sync:values.no');
  if (field.endsWith('Minor') && typeof value === 'number') {
    const currency = typeof record.currency === 'string' ? record.currency : null;
    return currency ? formatAmount(toMajor(value, currency), currency) : formatNumber(value);
  }
  if (field === 'durationSeconds' && typeof value === 'number') return formatDuration(value * 1000);
  if (typeof value === 'number') return formatNumber(value, Number.isInteger(value) ? 0 : 2);
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value) : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return t('sync:values.none');
    if (field === 'splits') return t('sync:values.parts', { count: value.length });
    if (field === 'lineItems') return lineItemsText(value, record.currency);
    if (value.every((v) => typeof v === 'string')) return value.map((id: string) => nameOf(id) ?? id).join(', ');
  }
  return JSON.stringify(value);
}

/** An invoice's lines as a person reads them: `Consulting · 2 × €500.00; Travel · 1 × €80.00`. */
function lineItemsText(lines: unknown[], currency: unknown): string {
  return apiLineItems(lines as Json, currency as Json)
    .map((l) => {
      const price = typeof l.price === 'number' && typeof currency === 'string' ? formatAmount(l.price, currency) : EMPTY;
      const quantity = typeof l.quantity === 'number' ? formatNumber(l.quantity, Number.isInteger(l.quantity) ? 0 : 2) : '';
      return `${String(l.name ?? EMPTY)} · ${quantity} × ${price}`;
    })
    .join('; ');
}

/** A part of a rule's sentence; `said` parts are words as someone else said them (English), shown untranslated. */
export interface RulePart {
  text: string;
  said?: true;
}

/** Stands for the said message while the sentence is translated, so the sentence can be split around it. */
const SAID = '\u0000said\u0000';

/**
 * The stated rule in the user's language, in parts: the catalogue's sentence for its code, with the remote's or
 * the local store's own message kept as it was said. A conflict recorded before codes (or with a code this build
 * does not know) is its English sentence, said as it was.
 */
export function ruleParts(c: Pick<SyncConflictInfo, 'rule' | 'ruleCode' | 'ruleParams'>): RulePart[] {
  const key = `sync:rules.${c.ruleCode}`;
  if (!c.ruleCode || !i18n.exists(key)) return [{ text: c.rule, said: true }];
  const params = c.ruleParams ?? {};
  const sentence = t(key, { ...params, message: SAID });
  const message = params.message ?? '';
  return sentence
    .split(SAID)
    .flatMap((text, i): RulePart[] => [...(i > 0 ? [{ text: message, said: true as const }] : []), { text }])
    .filter((p) => p.text !== '');
}

/** The rule as one line of text (a cell's title). */
export function ruleText(c: Pick<SyncConflictInfo, 'rule' | 'ruleCode' | 'ruleParams'>): string {
  return ruleParts(c)
    .map((p) => p.text)
    .join('');
}

/**
 * A round's progress: `pull`, `push`, `walk transaction` (a generic remote's lists are walked one entity at a
 * time), with how far it is when the round knows.
 */
export function phaseText(phase: string | null, done: number, total: number): string {
  const [head = '', ...rest] = (phase ?? '').split(' ');
  const name = i18n.exists(`sync:phases.${head}`) ? t(`sync:phases.${head}`) : head ? humanize(head) : t('sync:phases.working');
  const entity = rest.join(' ');
  const what = entity
    ? t('sync:phaseRecords', { phase: name, records: word('records', entity, () => entity.replace(/_/g, ' ')) })
    : name;
  return total > 0 ? t('sync:phaseOf', { phase: what, done, total }) : what;
}

function humanize(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What is wrong with an address typed as a remote's base URL, if anything (the server checks the same). */
export function remoteUrlProblem(url: string): string | undefined {
  return isRemoteBaseUrl(url) ? undefined : t('sync:connect.addressProblem');
}
