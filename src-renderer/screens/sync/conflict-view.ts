/**
 * How a conflict reads for a person: the record it is about, the fields in conflict, and each side's values as text.
 * Conflicts hold sync projections (docs/decisions/0140-sync-engine.md): amounts in integer minor units, days as
 * YYYY-MM-DD, tags as sorted id sets, categories by slug; these turn them back into what the screens show.
 */
import { isRemoteBaseUrl, type SyncConflictInfo } from '../../../src-shared/contract/app-sync';
import { toMajor } from '../../../src-shared/money';
import { formatAmount, formatDate, formatDuration, formatNumber } from '../../lib/format';
import { ENTITY_LABELS, FIELD_LABELS, S, VALUE_WORDS } from './strings';

type Values = Record<string, unknown>;

/** Names of referenced records the screen knows (tag ids → names), for sets of ids. */
export type NameOf = (id: string) => string | undefined;

export function entityLabel(entity: string): string {
  return ENTITY_LABELS[entity] ?? humanize(entity.replace(/_/g, ' '));
}

/** `Tag “Travel”`: the entity and the record's name on whichever side has one. */
export function recordLabel(c: Pick<SyncConflictInfo, 'entity' | 'local' | 'remote' | 'base' | 'recordId'>): string {
  const name = [c.local, c.remote, c.base].map((v) => v?.name).find((n) => typeof n === 'string' && n.trim());
  return `${entityLabel(c.entity)} ${name ? `“${name}”` : c.recordId.slice(0, 8)}`;
}

export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? humanize(field);
}

/** The fields to show side by side: those in conflict, or (a record deleted on one side) its name. */
export function conflictFields(c: Pick<SyncConflictInfo, 'fields' | 'local' | 'remote'>): string[] {
  if (c.fields.length) return c.fields;
  const present = c.local ?? c.remote ?? {};
  return 'name' in present ? ['name'] : Object.keys(present).slice(0, 3);
}

/** One side's value of a field as text; `values` is that side's projection (null: deleted there). */
export function sideText(values: Values | null, field: string, nameOf: NameOf = () => undefined): string {
  if (values === null) return S.deleted;
  return valueText(field, values[field], values, nameOf);
}

export function valueText(field: string, value: unknown, record: Values, nameOf: NameOf = () => undefined): string {
  if (value === null || value === undefined || value === '') return VALUE_WORDS.empty;
  if (typeof value === 'boolean') return value ? VALUE_WORDS.yes : VALUE_WORDS.no;
  if (field.endsWith('Minor') && typeof value === 'number') {
    const currency = typeof record.currency === 'string' ? record.currency : null;
    return currency ? formatAmount(toMajor(value, currency), currency) : formatNumber(value);
  }
  if (field === 'durationSeconds' && typeof value === 'number') return formatDuration(value * 1000);
  if (typeof value === 'number') return formatNumber(value, Number.isInteger(value) ? 0 : 2);
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value) : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return VALUE_WORDS.none;
    if (field === 'splits') return VALUE_WORDS.parts(value.length);
    if (value.every((v) => typeof v === 'string')) return value.map((id: string) => nameOf(id) ?? id).join(', ');
  }
  return JSON.stringify(value);
}

function humanize(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What is wrong with an address typed as a remote's base URL, if anything (the server checks the same). */
export function remoteUrlProblem(url: string): string | undefined {
  return isRemoteBaseUrl(url) ? undefined : S.addressProblem;
}
