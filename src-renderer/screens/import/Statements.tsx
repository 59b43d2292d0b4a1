/**
 * The statements of a file of several accounts (an MT940 export of all accounts, an OFX file of a bank and a card
 * statement, camt with several `Acct`; docs/decisions/0069, 0117): each with the account it names as the bank wrote
 * it, how its account was found, its counts and balance check, and a picker — the accounts in the statement's
 * currency first. A statement no account is known for is marked until one is chosen; two statements cannot share an
 * account, which is said before anything is sent.
 */
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import type { ImportPreview } from '../../../src-shared/contract/import';
import { formatAmount, formatNumber } from '../../lib/format';

type Statement = ImportPreview['statements'][number];
type Account = Pick<BankAccount, 'id' | 'name' | 'currency'>;
type T = TFunction<'import'>;

/** A statement's account picked for one another statement already goes to: refused before it is sent. */
export interface Clash {
  key: string;
  accountId: string;
  /** The statement that already goes to the account. */
  other: Statement;
}

/** The key the server takes a statement's account by: the account it names, else its 1-based position. */
export const statementKey = (s: Pick<Statement, 'accountRef' | 'index'>) => s.accountRef ?? String(s.index + 1);

/** Whether the statements are shown: a file of several, or of one not simply going to the account chosen above. */
export const showsStatements = (p: ImportPreview) =>
  p.statements.length > 1 || p.statements.some((s) => s.matchedBy !== 'request');

/** The statement of the file that already goes to `accountId`, other than the one keyed `key`. */
export function clashOf(p: ImportPreview, key: string, accountId: string): Clash | null {
  const other = p.statements.find((s) => statementKey(s) !== key && s.bankAccountId === accountId);
  return other ? { key, accountId, other } : null;
}

/** What keeps the file from being imported, said on the Import button; null when nothing does. */
export function commitBlocker(p: ImportPreview, clash: Clash | null, t: T): string | null {
  if (clash) return t('statements.blockedClash');
  const open = p.statements.filter((s) => !s.bankAccountId).length;
  return open > 0 ? t('statements.blockedNeeds', { count: open }) : null;
}

/** A statement by the account it names, or by its position when it names none. */
function statementName(s: Statement, t: T): string {
  return s.accountRef ?? t('statements.unnamed', { n: s.index + 1 });
}

function foundBy(s: Statement, t: T): string {
  switch (s.matchedBy) {
    case 'request':
      return t('statements.found.request');
    case 'choice':
      return t('statements.found.choice');
    case 'iban':
      return t('statements.found.iban');
    case 'earlier import':
      return t('statements.found.earlier');
    case 'account name':
      return t('statements.found.name');
    default:
      return t('statements.found.none');
  }
}

function countsOf(s: Statement, t: T): string {
  const c = s.counts;
  if (!c) return t('statements.countsLater');
  return t('statements.counts', {
    count: c.rows,
    new: formatNumber(c.new),
    duplicate: formatNumber(c.duplicate),
    link: formatNumber(c.link),
    review: formatNumber(c.review),
    rejected: formatNumber(c.rejected),
  });
}

function balanceOf(s: Statement, currency: string, t: T): string | null {
  const b = s.balance;
  if (!b) return null;
  const status =
    b.status === 'ok'
      ? t('statements.balance.ok')
      : b.status === 'mismatch'
        ? t('statements.balance.mismatch')
        : t('statements.balance.unchecked');
  const difference =
    b.status === 'mismatch' && b.difference !== null
      ? ` ${t('balance.difference', { amount: formatAmount(b.difference, currency) })}`
      : '';
  return `${t('balance.title')} ${status}${difference}`;
}

/** The accounts in the statement's currency first (the likely ones), then the rest, each group in list order. */
function AccountOptions(props: { accounts: readonly Account[]; currency: string | null }) {
  const { t } = useTranslation('import');
  const option = (a: Account) => (
    <option key={a.id} value={a.id}>
      {a.name} ({a.currency})
    </option>
  );
  const same = props.accounts.filter((a) => a.currency === props.currency);
  const others = props.accounts.filter((a) => a.currency !== props.currency);
  if (same.length === 0 || others.length === 0) return <>{props.accounts.map(option)}</>;
  return (
    <>
      <optgroup label={t('statements.inCurrency', { currency: props.currency })}>{same.map(option)}</optgroup>
      <optgroup label={t('statements.otherCurrencies')}>{others.map(option)}</optgroup>
    </>
  );
}

function StatementItem(props: {
  statement: Statement;
  accounts: readonly Account[];
  clash: Clash | null;
  busy: boolean;
  onChoose: (key: string, accountId: string) => void;
}) {
  const { t } = useTranslation('import');
  const { statement: s, clash } = props;
  const id = useId();
  const key = statementKey(s);
  const account = props.accounts.find((a) => a.id === s.bankAccountId);
  const picked = clash?.key === key ? clash.accountId : (s.bankAccountId ?? '');
  const balance = balanceOf(s, account?.currency ?? s.currency ?? 'EUR', t);
  return (
    <li className={`statement${s.bankAccountId ? '' : ' needs'}`} data-statement={key}>
      <div className="statement-head" id={`${id}-head`}>
        <strong>{t('statements.item', { n: s.index + 1 })}</strong> <span className="statement-ref">{statementName(s, t)}</span>
        {s.currency ? <span className="faint small"> · {s.currency}</span> : null}
        {s.bankAccountId ? null : <span className="statement-needs">{t('statements.needsAccount')}</span>}
      </div>
      <label className="filter">
        <span id={`${id}-label`}>{t('statements.goesTo')}</span>
        <select
          className="select"
          aria-labelledby={`${id}-label ${id}-head`}
          value={picked}
          disabled={props.busy}
          onChange={(e) => props.onChoose(key, e.target.value)}
        >
          {s.bankAccountId ? null : <option value="">{t('statements.choose')}</option>}
          <AccountOptions accounts={props.accounts} currency={s.currency} />
        </select>
      </label>
      <div className="statement-facts small">
        <span>{foundBy(s, t)}</span>
        <span>{countsOf(s, t)}</span>
        {balance ? <span className={s.balance?.status === 'mismatch' ? 'statement-bad' : ''}>{balance}</span> : null}
      </div>
      {clash?.key === key ? (
        <p className="statement-bad small" role="alert">
          {t('statements.clash', {
            account: props.accounts.find((a) => a.id === clash.accountId)?.name ?? clash.accountId,
            n: clash.other.index + 1,
            other: statementName(clash.other, t),
          })}
        </p>
      ) : null}
    </li>
  );
}

export function Statements(props: {
  preview: ImportPreview;
  accounts: readonly Account[];
  clash: Clash | null;
  busy: boolean;
  onChoose: (key: string, accountId: string) => void;
}) {
  const { t } = useTranslation('import');
  const list = props.preview.statements;
  return (
    <section className="statements" aria-label={t('statements.label')}>
      <h3>{t('statements.title', { count: list.length })}</h3>
      <ol>
        {list.map((s) => (
          <StatementItem
            key={s.index}
            statement={s}
            accounts={props.accounts}
            clash={props.clash}
            busy={props.busy}
            onChoose={props.onChoose}
          />
        ))}
      </ol>
    </section>
  );
}
