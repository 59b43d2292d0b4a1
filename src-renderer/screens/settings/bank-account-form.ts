/**
 * The bank account form's values and what they become on the wire (pure, table-tested). A new account is manual,
 * with an optional opening balance on a day; an edit sends only what changed, and for a manual account a balance
 * typed there becomes the API's `balance` (the server books the difference as an adjustment). Amounts are read in
 * the person's number format (lib/parse-number.ts).
 */
import type { AccountType, BankAccount, BankAccountCreate, BankAccountPatch } from '../../../src-shared/contract/bank-accounts';
import { t } from '../../i18n';
import { parseDecimal } from '../../lib/parse-number';

export interface AccountValues {
  name: string;
  currency: string;
  type: AccountType;
  /** Opening balance (new) or balance today (edit of a manual account), as typed. */
  balance: string;
  openingDate: string;
  iban: string;
}

export type AccountErrors = Partial<Record<keyof AccountValues, string>>;

export function newAccountValues(currency: string): AccountValues {
  return { name: '', currency, type: 'depository', balance: '', openingDate: '', iban: '' };
}

export function accountValues(a: BankAccount): AccountValues {
  return { name: a.name, currency: a.currency, type: a.type, balance: '', openingDate: '', iban: a.iban ?? '' };
}

function amountOf(text: string, errors: AccountErrors): number | undefined {
  if (!text.trim()) return undefined;
  const n = parseDecimal(text);
  if (n === null) errors.balance = t('team:accounts.form.notAmount');
  return n ?? undefined;
}

export function createBody(v: AccountValues): { body?: BankAccountCreate; errors: AccountErrors } {
  const errors: AccountErrors = {};
  if (!v.name.trim()) errors.name = t('team:accounts.form.nameRequired');
  const openingBalance = amountOf(v.balance, errors);
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    body: {
      name: v.name.trim(),
      currency: v.currency,
      type: v.type,
      ...(openingBalance !== undefined ? { openingBalance } : {}),
      ...(v.openingDate ? { openingDate: v.openingDate } : {}),
      ...(v.iban.trim() ? { iban: v.iban.trim() } : {}),
    } as BankAccountCreate,
  };
}

export function patchBody(a: BankAccount, v: AccountValues): { body?: BankAccountPatch; errors: AccountErrors } {
  const errors: AccountErrors = {};
  if (!v.name.trim()) errors.name = t('team:accounts.form.nameRequired');
  const balance = a.manual ? amountOf(v.balance, errors) : undefined;
  if (Object.keys(errors).length) return { errors };
  const body: Record<string, unknown> = {};
  if (v.name.trim() !== a.name) body.name = v.name.trim();
  if (v.type !== a.type) body.type = v.type;
  if (v.iban.trim() !== (a.iban ?? '')) body.iban = v.iban.trim() || null;
  if (balance !== undefined && balance !== a.balance.amount) body.balance = balance;
  return { errors, body: body as BankAccountPatch };
}
