import type { Transaction } from '../../../src-shared/contract/transactions';
import type { ReviewState } from '../../../src-shared/domain/review-state';
import { includedTaxMinor } from '../../../src-shared/domain/tax';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { fromIds } from '../ids';
import type { FieldSourceKind } from './field-sources';
import type { TransactionRow } from './row';

/**
 * The detailed record of a transaction: its row with category, account, tags, attachments, splits and field sources
 * aggregated by SQLite in the same statement, mapped to the contract's Transaction.
 */

interface DetailRow extends TransactionRow {
  cat_json: string | null;
  account_json: string;
  tags_json: string;
  attachments_json: string;
  splits_json: string;
  sources_json: string;
}

const DETAIL_COLUMNS = `t.*,
  (SELECT json_object('id', c.id, 'name', c.name, 'color', c.color, 'taxRate', c.tax_rate, 'taxType', c.tax_type, 'slug', c.slug)
     FROM transaction_categories c WHERE c.team_id = t.team_id AND c.slug = t.category_slug) AS cat_json,
  (SELECT json_object('id', a.id, 'name', a.name, 'currency', a.currency, 'connectionId', a.connection_id,
     'connectionName', a.connection_name, 'institutionName', a.institution_name, 'logo', a.institution_logo)
     FROM bank_accounts a WHERE a.team_id = t.team_id AND a.id = t.bank_account_id) AS account_json,
  (SELECT json_group_array(json_array(id, name)) FROM (
     SELECT g.id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id
     WHERE tt.team_id = t.team_id AND tt.transaction_id = t.id ORDER BY g.name COLLATE NOCASE, g.id)) AS tags_json,
  (SELECT json_group_array(json_array(id, sha256, filename, size, mime_type)) FROM (
     SELECT * FROM transaction_attachments x WHERE x.team_id = t.team_id AND x.transaction_id = t.id ORDER BY created_at, id))
     AS attachments_json,
  (SELECT json_group_array(json_array(s.id, s.amount_minor, s.category_slug, s.tax_rate, s.tax_type, s.note,
       (SELECT c.tax_rate FROM transaction_categories c WHERE c.team_id = s.team_id AND c.slug = s.category_slug),
       (SELECT c.tax_type FROM transaction_categories c WHERE c.team_id = s.team_id AND c.slug = s.category_slug)))
     FROM (SELECT * FROM transaction_splits s WHERE s.team_id = t.team_id AND s.transaction_id = t.id ORDER BY position) s)
     AS splits_json,
  (SELECT json_group_object(field, json_array(source, source_id, set_at)) FROM transaction_field_sources f
     WHERE f.team_id = t.team_id AND f.transaction_id = t.id) AS sources_json`;

type SplitTuple = [string, number, string | null, number | null, string | null, string | null, number | null, string | null];

function toTransaction(r: DetailRow): Transaction {
  const m = (minor: number | null) => (minor === null ? null : toMajor(minor, r.currency));
  const cat = r.cat_json ? (JSON.parse(r.cat_json) as Transaction['category'] & object) : null;
  const taxRate = r.tax_rate ?? cat?.taxRate ?? null;
  const taxType = r.tax_type ?? cat?.taxType ?? null;
  const account = JSON.parse(r.account_json) as {
    id: string;
    name: string;
    currency: string;
    connectionId: string | null;
    connectionName: string | null;
    institutionName: string | null;
    logo: string | null;
  };
  const tags = (JSON.parse(r.tags_json) as [string, string][]).map(([id, name]) => ({ id, name }));
  const attachments = (JSON.parse(r.attachments_json) as [string, string, string | null, number, string][]).map(
    ([id, sha, filename, size, type]) => ({ id, path: ['attachments', id, filename ?? sha], size, type, filename }),
  );
  const splits = (JSON.parse(r.splits_json) as SplitTuple[]).map(([id, amount, category, rate, type, note, catRate, catType]) => {
    const effectiveRate = rate ?? catRate;
    return {
      id,
      amount: toMajor(amount, r.currency),
      category,
      taxRate: effectiveRate,
      taxType: type ?? catType,
      taxAmount: effectiveRate === null ? null : toMajor(includedTaxMinor(amount, effectiveRate), r.currency),
      note,
      ownTaxRate: rate,
      ownTaxType: type,
    };
  });
  const sources = Object.fromEntries(
    Object.entries(JSON.parse(r.sources_json ?? '{}') as Record<string, [string, string | null, string]>).map(
      ([field, [source, sourceId, setAt]]) => [field, { source: source as FieldSourceKind, sourceId, setAt }],
    ),
  );
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(r.metadata) as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  const bool = (v: number | null) => (v === null ? null : v === 1);
  return {
    id: r.id,
    internalId: r.internal_id,
    name: r.name,
    amount: toMajor(r.amount_minor, r.currency),
    balance: m(r.balance_minor),
    baseAmount: r.base_amount_minor === null || !r.base_currency ? null : toMajor(r.base_amount_minor, r.base_currency),
    baseCurrency: r.base_amount_minor === null ? null : r.base_currency,
    taxAmount: taxRate === null ? null : toMajor(includedTaxMinor(r.amount_minor, taxRate), r.currency),
    taxRate,
    taxType,
    currency: r.currency,
    counterpartyName: r.counterparty_name,
    merchantName: r.merchant_name,
    date: `${r.date}T00:00:00.000Z`,
    category: cat,
    status: r.status,
    internal: bool(r.internal),
    recurring: bool(r.recurring),
    manual: bool(r.manual),
    frequency: r.frequency,
    isFulfilled: r.is_fulfilled === 1,
    note: r.note,
    metadata,
    metadataCompleted: false,
    notified: bool(r.notified),
    account: {
      id: account.id,
      name: account.name,
      currency: account.currency,
      connection: {
        id: account.connectionId ?? `manual:${account.id}`,
        name: account.connectionName ?? account.institutionName ?? 'Manual account',
        logoUrl: account.logo,
      },
    },
    tags,
    attachments,
    description: r.description,
    method: r.method,
    bankAccountId: r.bank_account_id,
    assignedId: r.assigned_id,
    reviewState: r.review_state as ReviewState,
    reviewedAt: r.reviewed_at,
    reconciledAt: r.reconciled_at,
    taxOverridden: r.tax_rate !== null || r.tax_type !== null,
    ownTaxRate: r.tax_rate,
    ownTaxType: r.tax_type,
    splits,
    fieldSources: sources,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getTransactions(db: Db, teamId: string, ids: readonly string[]): Transaction[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${DETAIL_COLUMNS} FROM ${fromIds('transactions', 't')} WHERE t.team_id = ?`)
    .all(JSON.stringify(ids), teamId) as DetailRow[];
  const byId = new Map(rows.map((r) => [r.id, toTransaction(r)]));
  return ids.flatMap((id) => {
    const t = byId.get(id);
    return t ? [t] : [];
  });
}

export function getTransaction(db: Db, teamId: string, id: string): Transaction {
  const [t] = getTransactions(db, teamId, [id]);
  if (!t) throw new NotFound('transaction', id);
  return t;
}
