import { z } from 'zod';
import { normalizeIban } from '../validation/iban';
import { ClientId } from './common';
import { Institution } from './institutions';
import { Day } from './invoices';
import { BooleanQuery, idParams } from './list';
import { defineRoute } from './route';
import { Currency } from './tracker';

/**
 * Bank accounts (docs/decisions/0054-bank-accounts-and-balances.md): the spec's fields (balance object, institution,
 * enrollment_id, resource_id, expires_at) plus `manual`, `enabled`, `createdAt`, `updatedAt` (extensions). An
 * account's balance is always the sum of its transactions (the ledger keeps it): a manual account's opening balance
 * is an "Opening balance" transaction (status excluded: in the balance, out of reports), a balance set by PATCH is
 * a "Balance adjustment" transaction of the difference. Connected accounts come from a bank connection on a remote
 * instance (sync); here they can be renamed, retyped, disabled or deleted.
 */
export const ACCOUNT_TYPES = ['depository', 'credit', 'other_asset', 'loan', 'other_liability'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const Balance = z
  .object({ amount: z.number().describe('major units'), currency: z.string() })
  .meta({ id: 'AccountBalance' });

export const BankAccount = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    balance: Balance.describe('the sum of its transactions, every status (the bank’s balance)'),
    currency: z.string(),
    institution: Institution,
    enrollment_id: z.string().nullable().describe('enrollment id at an aggregator'),
    resource_id: z.string().nullable().describe('reference id at an open-banking provider'),
    expires_at: z.string().nullable().describe('day until which the bank access is valid'),
    manual: z.boolean().describe('extension: kept by hand, not connected to a bank'),
    enabled: z.boolean().describe('extension: disabled accounts are left out of balances'),
    iban: z.string().nullable().describe('extension: the account’s IBAN (no spaces), printed on its statements'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'BankAccount' });
export type BankAccount = z.infer<typeof BankAccount>;

export const BankAccountListQuery = z.object({
  enabled: BooleanQuery.describe('only enabled (true) or disabled (false) accounts'),
  manual: BooleanQuery.describe('only manual (true) or connected (false) accounts'),
});

const Name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const Money = z.number().finite('must be a number');
/** An IBAN as written ("DE89 3704 0044 …" or without spaces), stored without spaces; "" or null clears it. */
const Iban = z
  .preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string()
      .max(50)
      .nullable()
      .transform((v, ctx) => {
        if (v === null) return null;
        const iban = normalizeIban(v);
        if (!iban) ctx.addIssue({ code: 'custom', message: 'must be a valid IBAN (its check digits do not match)' });
        return iban ?? z.NEVER;
      }),
  )
  .optional()
  .describe('extension: the account’s IBAN, printed on its statements');

export const BankAccountCreate = z.strictObject({
  id: ClientId.optional(),
  name: Name,
  currency: Currency,
  manual: z
    .literal(true, { message: 'only manual accounts are created here; connected ones come from a bank connection' })
    .optional()
    .describe('true (the default): connected accounts come from a bank connection on a remote instance'),
  type: z.enum(ACCOUNT_TYPES).optional().describe('default depository'),
  openingBalance: Money.optional().describe(
    'extension: major units; becomes an "Opening balance" transaction (status excluded) on openingDate',
  ),
  openingDate: Day.optional().describe('extension: day of the opening balance; default today (UTC)'),
  enabled: z.boolean().optional(),
  iban: Iban,
});
export type BankAccountCreate = z.infer<typeof BankAccountCreate>;

export const BankAccountPatch = z.strictObject({
  name: Name.optional(),
  type: z.enum(ACCOUNT_TYPES).optional(),
  enabled: z.boolean().optional(),
  currency: Currency.optional().describe('only while the account has no transactions'),
  balance: Money.optional().describe(
    'manual accounts: the balance today; the difference becomes a "Balance adjustment" transaction (status excluded)',
  ),
  iban: Iban,
});
export type BankAccountPatch = z.infer<typeof BankAccountPatch>;

export const BankAccountDeleteQuery = z.object({
  cascade: BooleanQuery.describe('true: delete its transactions too (refused while any is reconciled)'),
});

export const DeletedBankAccount = BankAccount.extend({
  transactionsDeleted: z.number().int().describe('extension: how many transactions went with it'),
}).meta({ id: 'DeletedBankAccount' });

export const BalanceResponse = z
  .object({ data: Balance.nullable().describe('null while a connected account has no transactions yet (unknown)') })
  .meta({ id: 'AccountBalanceResponse' });

export const StatementQuery = z.object({
  from: Day.describe('first day of the period'),
  to: Day.describe('last day of the period'),
});

export const BankAccountIdParams = idParams();

export const bankAccountRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/bank-accounts',
    tag: 'bank-accounts',
    summary: "List the team's bank accounts, by name",
    scopes: ['bank-accounts.read'],
    query: BankAccountListQuery,
    responses: { 200: z.object({ data: z.array(BankAccount) }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/bank-accounts/:id',
    tag: 'bank-accounts',
    summary: 'Retrieve a bank account',
    scopes: ['bank-accounts.read'],
    params: BankAccountIdParams,
    responses: { 200: BankAccount },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/bank-accounts',
    tag: 'bank-accounts',
    summary: 'Create a manual bank account (optionally with an opening balance)',
    scopes: ['bank-accounts.write'],
    idempotent: true,
    body: BankAccountCreate,
    responses: { 200: BankAccount },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/bank-accounts/:id',
    tag: 'bank-accounts',
    summary: 'Change the supplied fields (balance: manual accounts, through an adjustment transaction)',
    scopes: ['bank-accounts.write'],
    idempotent: true,
    params: BankAccountIdParams,
    body: BankAccountPatch,
    responses: { 200: BankAccount },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/bank-accounts/:id',
    tag: 'bank-accounts',
    summary: 'Delete a bank account: 409 while it has transactions, unless ?cascade=true',
    description:
      'With cascade the account and every transaction of it go in one database transaction: manual ones are deleted, ' +
      'bank lines are first excluded (so reports and the roll-up no longer count them) and then removed. A ' +
      'reconciled transaction blocks the whole delete (409).',
    scopes: ['bank-accounts.write'],
    params: BankAccountIdParams,
    query: BankAccountDeleteQuery,
    responses: { 200: DeletedBankAccount },
  }),
  balance: defineRoute({
    method: 'GET',
    path: '/bank-accounts/:id/balance',
    tag: 'bank-accounts',
    summary: "The account's balance: {data: {amount, currency} | null}",
    scopes: ['bank-accounts.read'],
    params: BankAccountIdParams,
    responses: { 200: BalanceResponse },
  }),
  statement: defineRoute({
    method: 'GET',
    path: '/bank-accounts/:id/statement',
    tag: 'bank-accounts',
    summary: 'Account statement for a period as a PDF (application/pdf)',
    description:
      'Opening balance (after every transaction before `from`), each transaction of the period in booking order with ' +
      'its running balance, and the closing balance. Every status counts, as in the bank’s balance; excluded lines ' +
      'are marked. At most 20,000 transactions: narrow the period beyond that (422).',
    scopes: ['bank-accounts.read', 'transactions.read'],
    params: BankAccountIdParams,
    query: StatementQuery,
    responses: { 200: z.any().describe('application/pdf') },
  }),
};
