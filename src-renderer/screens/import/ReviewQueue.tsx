/** The review queue: bank rows whose match with a hand-entered transaction was uncertain, linked or created by hand. */
import { importRoutes } from '../../../src-shared/contract/import';
import { ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { CandidateName } from './CandidateName';

export function ReviewQueue() {
  const queue = useCursorList(importRoutes.listReview, { status: 'open', pageSize: 50 });
  const link = useWrite(importRoutes.linkReview);
  const create = useWrite(importRoutes.createReview);
  const toast = useToasts();
  return (
    <section className="card" aria-label="Review queue">
      <div className="chart-head padded">
        <h2>Review queue</h2>
        <span className="faint small">Bank rows whose match with a hand-entered transaction was uncertain.</span>
      </div>
      {queue.error ? <ErrorBanner error={queue.error} onRetry={queue.refetch} /> : null}
      {queue.items.length === 0 && !queue.isLoading ? (
        <p className="faint padded">Nothing to review. Uncertain matches from imports wait here.</p>
      ) : (
        <ul className="review-list">
          {queue.items.map((item) => (
            <li key={item.id} className="review-item">
              <div className="grow">
                <strong>{item.name}</strong> · {formatDate(item.date)} · {formatAmount(item.amount, item.currency)}
                <div className="cell-sub">
                  Line {item.line} of the file{item.description ? ` · ${item.description}` : ''}
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
                        .then(() => toast.show('Linked to the hand-entered transaction'))
                        .catch((err) => toast.error(err, 'Could not link'))
                    }
                  >
                    Link to <CandidateName id={c.transactionId} /> ({formatNumber(c.score * 100)} %)
                  </button>
                ))}
                <button
                  type="button"
                  className="btn small"
                  onClick={() =>
                    create
                      .mutateAsync({ params: { id: item.id } })
                      .then(() => toast.show('Created as a transaction of its own'))
                      .catch((err) => toast.error(err, 'Could not create'))
                  }
                >
                  Create as new
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
