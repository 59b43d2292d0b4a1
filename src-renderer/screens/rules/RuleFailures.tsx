/**
 * A saved rule's failures (`GET /v1/rules/{id}/failures`): the actions that could not apply when it ran (a split
 * larger than the line), newest first, each with the transaction it concerned — read one by one, so only the newest
 * few are listed — and when. The messages are the server's, in English.
 */
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner } from '../../components/ui';
import { useRead, useRecord } from '../../data/use-read';
import { formatAmount, formatDate, formatDateTime } from '../../lib/format';

/** Failures listed with their transaction; the rest are counted. */
export const FAILURES_SHOWN = 10;

export function RuleFailures(props: { ruleId: string }) {
  const { t } = useTranslation('rules');
  const failures = useRead(ruleRoutes.failures, { params: { id: props.ruleId } });
  const list = failures.data?.data ?? [];
  const shown = list.slice(0, FAILURES_SHOWN);

  return (
    <section className="form-section" aria-labelledby="rule-failures-title" data-testid="rule-failures">
      <h3 id="rule-failures-title">{t('failures.heading')}</h3>
      {failures.error ? <ErrorBanner error={failures.error} onRetry={() => void failures.refetch()} /> : null}
      {failures.data ? (
        <p className="faint" role="status">
          {list.length ? t('failures.count', { count: list.length }) : t('failures.none')}
        </p>
      ) : null}
      {shown.length ? (
        <DataTable
          label={t('failures.title')}
          className="compact"
          rows={shown}
          rowKey={(f) => `${f.createdAt}-${f.transactionId}-${f.message}`}
          columns={[
            { id: 'when', header: t('failures.when'), className: 'date', cell: (f) => formatDateTime(f.createdAt) },
            { id: 'transaction', header: t('failures.transaction'), cell: (f) => <FailedTransaction id={f.transactionId} /> },
            {
              id: 'message',
              header: t('failures.message'),
              cell: (f) => (
                <span className="cell-text" lang="en">
                  {f.message}
                </span>
              ),
            },
          ]}
        />
      ) : null}
      {list.length > shown.length ? (
        <p className="faint small">{t('failures.more', { count: list.length - shown.length })}</p>
      ) : null}
    </section>
  );
}

/** The transaction a failure concerned: its name, day and amount; "deleted since" when it is gone. */
function FailedTransaction(props: { id: string | null }) {
  const { t } = useTranslation('rules');
  const tx = useRecord(transactionRoutes.get, { id: props.id ?? '' }, { enabled: props.id !== null });
  const gone = props.id === null || (tx.error instanceof ApiClientError && tx.error.status === 404);
  if (gone) return <span className="faint">{t('failures.gone')}</span>;
  if (tx.error) return <span className="faint">{t('failures.unread')}</span>;
  if (!tx.data) return <span className="faint">…</span>;
  return (
    <div className="cell-text">
      {tx.data.name}
      <div className="faint small">
        {formatDate(tx.data.date.slice(0, 10))} · {formatAmount(tx.data.amount, tx.data.currency)}
      </div>
    </div>
  );
}
