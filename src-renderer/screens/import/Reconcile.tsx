/**
 * Reconciliation against a statement: the statement's closing date and balance for an account, compared with the
 * account's cleared transactions (nothing is marked yet): the difference, and the lines that could explain it.
 * When they agree, reconciling marks the cleared transactions up to that day.
 */
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import { reconciliationRoutes } from '../../../src-shared/contract/reconciliation';
import { DateInput } from '../../components/DateField';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { api } from '../../lib/api';
import { fieldErrorsFrom } from '../../lib/field-errors';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { parseDecimal } from '../../lib/parse-number';
import { useToasts } from '../../stores/toasts';
import { candidateReason, reconcileMessage } from './reconcile-text';

type Preview = Awaited<ReturnType<typeof previewCall>>;
const previewCall = (body: { bankAccountId: string; statementDate: string; closingBalance: number }) =>
  api.call(reconciliationRoutes.preview, { body });

export function Reconcile({ accounts }: { accounts: readonly BankAccount[] }) {
  const { t } = useTranslation('import');
  const [accountId, setAccountId] = useState('');
  const [date, setDate] = useState('');
  const [balance, setBalance] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const create = useWrite(reconciliationRoutes.create);
  const toast = useToasts();
  const id = useId();
  const account = accountId || accounts[0]?.id || '';
  const currency = accounts.find((a) => a.id === account)?.currency ?? 'EUR';

  // The balance as the person writes numbers: "127.899,74" in German is 127899.74, not NaN.
  const closingBalance = parseDecimal(balance);
  const body = () => ({ bankAccountId: account, statementDate: date, closingBalance: closingBalance ?? Number.NaN });

  async function check(e: FormEvent) {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!date) local.statementDate = t('reconcile.enterDate');
    if (closingBalance === null) local.closingBalance = t('reconcile.enterBalance');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    setFailure(null);
    try {
      setPreview(await previewCall(body()));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err));
      else setFailure(err);
    } finally {
      setBusy(false);
    }
  }

  async function reconcile() {
    setBusy(true);
    try {
      const r = await create.mutateAsync({ body: body() });
      toast.show(t('reconcile.done', { count: r.reconciliation.transactionCount }));
      setPreview(r.preview);
    } catch (err) {
      toast.error(err, t('reconcile.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card reconcile" aria-label={t('reconcile.title')}>
      <div className="chart-head padded">
        <h2>{t('reconcile.title')}</h2>
        <span className="faint small">{t('reconcile.intro')}</span>
      </div>
      <form className="reconcile-form" onSubmit={check} noValidate>
        <div className="field account-choice">
          <label htmlFor={`${id}-acc`}>{t('account')}</label>
          <select id={`${id}-acc`} className="select" value={account} onChange={(e) => setAccountId(e.target.value)}>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.currency})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-date`}>{t('reconcile.date')}</label>
          <DateInput id={`${id}-date`} value={date} onChange={setDate} aria-invalid={Boolean(errors.statementDate)} />
          {errors.statementDate ? <span className="error">{errors.statementDate}</span> : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-bal`}>{t('reconcile.balance', { currency })}</label>
          <input
            id={`${id}-bal`}
            className="input"
            inputMode="decimal"
            value={balance}
            onChange={(e) => setBalance(e.target.value)}
            aria-invalid={Boolean(errors.closingBalance)}
          />
          {errors.closingBalance ? <span className="error">{errors.closingBalance}</span> : null}
        </div>
        <button type="submit" className="btn" disabled={busy || !account}>
          {t('reconcile.compare')}
        </button>
      </form>
      {failure ? <ErrorBanner error={failure} /> : null}
      {preview ? (
        <div className="reconcile-result" role="status">
          <dl className="tiles">
            <div className="tile">
              <dt>{t('reconcile.statement')}</dt>
              <dd>{formatAmount(preview.statementBalance, preview.currency)}</dd>
            </div>
            <div className="tile">
              <dt>{t('reconcile.cleared')}</dt>
              <dd>{formatAmount(preview.clearedBalance, preview.currency)}</dd>
            </div>
            <div className={`tile ${preview.balanced ? 'ok' : 'bad'}`}>
              <dt>{t('reconcile.difference')}</dt>
              <dd>{formatAmount(preview.difference, preview.currency)}</dd>
            </div>
            <div className="tile">
              <dt>{t('reconcile.toMark')}</dt>
              <dd>{formatNumber(preview.toMark)}</dd>
            </div>
          </dl>
          <p>{reconcileMessage(preview)}</p>
          <DataTable
            label={t('reconcile.candidates')}
            className="compact"
            hideWhenEmpty
            rows={preview.candidates}
            rowKey={(c) => c.transactionId}
            columns={[
              { id: 'date', header: t('rows.date'), className: 'date', cell: (c) => formatDate(c.date.slice(0, 10)) },
              { id: 'name', header: t('reconcile.transaction'), cell: (c) => c.name },
              {
                id: 'amount',
                header: t('rows.amount'),
                numeric: true,
                className: 'money',
                cell: (c) => formatAmount(c.amount, preview.currency),
              },
              { id: 'reason', header: t('reconcile.why'), cell: (c) => candidateReason(c, preview) },
            ]}
          />
          <div className="panel-actions">
            <button
              type="button"
              className="btn primary"
              disabled={!preview.balanced || busy || preview.toMark === 0}
              onClick={() => void reconcile()}
            >
              {t('reconcile.reconcileCount', { count: preview.toMark })}
            </button>
            {!preview.balanced ? <span className="faint small">{t('reconcile.needsZero')}</span> : null}
          </div>
        </div>
      ) : null}
    </section>
  );
}
