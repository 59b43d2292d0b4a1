/** The review queue: bank rows whose match with a hand-entered transaction was uncertain, linked or created by hand. */
import { useTranslation } from 'react-i18next';
import { importRoutes } from '../../../src-shared/contract/import';
import { ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { CandidateName } from './CandidateName';

export function ReviewQueue() {
  const { t } = useTranslation('import');
  const queue = useCursorList(importRoutes.listReview, { status: 'open', pageSize: 50 });
  const link = useWrite(importRoutes.linkReview);
  const create = useWrite(importRoutes.createReview);
  const toast = useToasts();
  return (
    <section className="card" aria-label={t('queue.title')}>
      <div className="chart-head padded">
        <h2>{t('queue.title')}</h2>
        <span className="faint small">{t('queue.intro')}</span>
      </div>
      {queue.error ? <ErrorBanner error={queue.error} onRetry={queue.refetch} /> : null}
      {queue.items.length === 0 && !queue.isLoading ? (
        <p className="faint padded">{t('queue.none')}</p>
      ) : (
        <ul className="review-list">
          {queue.items.map((item) => (
            <li key={item.id} className="review-item">
              <div className="grow">
                <strong>{item.name}</strong> · {formatDate(item.date)} · {formatAmount(item.amount, item.currency)}
                <div className="cell-sub">
                  {t('queue.line', { line: formatNumber(item.line) })}
                  {item.description ? ` · ${item.description}` : ''}
                </div>
              </div>
              <div className="review-actions">
                {item.candidates.map((c) => (
                  <button
                    key={c.transactionId}
                    type="button"
                    className="btn small"
                    onClick={() =>
                      link
                        .mutateAsync({ params: { id: item.id }, body: { transactionId: c.transactionId } })
                        .then(() => toast.show(t('queue.linked')))
                        .catch((err) => toast.error(err, t('queue.linkFailed')))
                    }
                  >
                    {t('queue.linkTo')} <CandidateName id={c.transactionId} /> ({formatNumber(c.score * 100)} %)
                  </button>
                ))}
                <button
                  type="button"
                  className="btn small"
                  onClick={() =>
                    create
                      .mutateAsync({ params: { id: item.id } })
                      .then(() => toast.show(t('queue.created')))
                      .catch((err) => toast.error(err, t('queue.createFailed')))
                  }
                >
                  {t('queue.createNew')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
