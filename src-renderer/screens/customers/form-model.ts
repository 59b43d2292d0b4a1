/**
 * The customer form's values and what they become on the wire. Pure, so the rules are table-tested:
 * - create sends `name` and every non-blank field (blank = not given);
 * - edit sends only the fields that changed; a field emptied by the person is sent as null (cleared);
 * - tags go as `{id}` references (the contract's TagInput), replacing the set only when it changed.
 * Values are trimmed before comparing, so retyping the same text is no change.
 */
import type { Customer, CustomerCreate, CustomerPatch } from '../../../src-shared/contract/customers';
import { checkVatNumber } from '../../../src-shared/validation/vat-number';
import { i18n, t } from '../../i18n';
import { regionName } from '../../lib/regions';

export const TEXT_FIELDS = [
  'name',
  'contact',
  'email',
  'billingEmail',
  'phone',
  'website',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'zip',
  'countryCode',
  'vatNumber',
  'peppolId',
  'eInvoiceFormat',
  'buyerReference',
  'note',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export type FormValues = Record<TextField, string> & { tagIds: string[] };

export function emptyForm(): FormValues {
  const v = Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])) as Record<TextField, string>;
  return { ...v, tagIds: [] };
}

export function formFromCustomer(c: Customer): FormValues {
  const v = Object.fromEntries(TEXT_FIELDS.map((f) => [f, (c[f] as string | null) ?? ''])) as Record<TextField, string>;
  return { ...v, tagIds: c.tags.map((t) => t.id) };
}

export function toCreateBody(values: FormValues): CustomerCreate {
  const body: Record<string, unknown> = { name: values.name.trim() };
  for (const f of TEXT_FIELDS) {
    if (f === 'name') continue;
    const v = values[f].trim();
    if (v) body[f] = v;
  }
  if (values.tagIds.length) body.tags = values.tagIds.map((id) => ({ id }));
  return body as CustomerCreate;
}

export function toPatchBody(original: Customer, values: FormValues): CustomerPatch {
  const before = formFromCustomer(original);
  const patch: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) {
    const now = values[f].trim();
    if (now === before[f].trim()) continue;
    patch[f] = now === '' && f !== 'name' ? null : now;
  }
  const sameTags = values.tagIds.length === before.tagIds.length && values.tagIds.every((id) => before.tagIds.includes(id));
  if (!sameTags) patch.tags = values.tagIds.map((id) => ({ id }));
  return patch as CustomerPatch;
}

/** Checks the browser can make before sending (the server still validates everything). */
export function localErrors(values: FormValues): Partial<Record<TextField, string>> {
  const errors: Partial<Record<TextField, string>> = {};
  if (!values.name.trim()) errors.name = t('customers:form.nameRequired');
  const vat = vatNumberError(values.vatNumber, values.countryCode);
  if (vat) errors.vatNumber = vat;
  return errors;
}

/** A VAT number that does not have its country's format, said with an example of the format expected. */
export function vatNumberError(vatNumber: string, countryCode: string | null): string | undefined {
  const check = checkVatNumber(vatNumber, countryCode);
  if (check.ok) return undefined;
  return t('common:vatFormat', { country: regionName(check.country, i18n.language), example: check.example });
}
