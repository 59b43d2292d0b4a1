/**
 * Where a receipt stands with the bank's transactions: being read; matched (with the way back: unmatch); the
 * transactions suggested for it, best first, each to confirm (the file is attached to it) or decline (it is not
 * suggested again); or none yet (it is matched again when new transactions arrive). Whatever was suggested, the
 * person can find its transaction and match it by hand.
 */
import { useTranslation } from 'react-i18next';
import { type InboxItem, inboxRoutes } from '../../../src-shared/contract/inbox';
import { Progress } from '../../components/Progress';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { isBusy } from './inbox-view';
import { TransactionPicker } from './TransactionPicker';

export function MatchCard({ item }: { item: InboxItem }) {
  const { t } = useTranslation('inbox');
  const confirm = useWrite(inboxRoutes.confirm);
  const decline = useWrite(inboxRoutes.decline);
  const unmatch = useWrite(inboxRoutes.unmatch);
  const toast = useToasts();
  const busy = confirm.isPending || decline.isPending || unmatch.isPending;

  async function act(run: () => unknown, done: string, failed: string) {
    try {
      await run();
      toast.show(done);
    } catch (err) {
      toast.error(err, failed);
    }
  }

  const tx = item.transaction;
  return (
    <section className="card inbox-card" aria-labelledby="inbox-match-title" data-testid="inbox-match">
      <h2 id="inbox-match-title">{t('match.title')}</h2>
      {isBusy(item.status) ? <Progress label={t('match.reading')} share={null} /> : null}
      {tx ? (
        <div className="match-row matched">
          <div className="grow">
            <div className="cell-name">{tx.name}</div>
            <div className="faint small">
              {formatDate(tx.date.slice(0, 10))} · <span className="money">{formatAmount(tx.amount, tx.currency)}</span>
            </div>
          </div>
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() =>
              void act(
                () => unmatch.mutateAsync({ params: { id: item.id } }),
                t('match.unmatched', { name: tx.name }),
                t('match.unmatchFailed'),
              )
            }
          >
            {t('match.unmatch')}
          </button>
        </div>
      ) : null}
      {!tx && item.suggestions.length ? (
        <>
          <p className="faint">{t('match.suggestedIntro', { count: item.suggestions.length })}</p>
          <ul className="match-list">
            {item.suggestions.map((s) => (
              <li key={s.transactionId} className="match-row" data-suggestion-id={s.transactionId}>
                <div className="grow">
                  <div className="cell-name">{s.transaction.name}</div>
                  <div className="faint small">
                    {formatDate(s.transaction.date.slice(0, 10))} ·{' '}
                    <span className="money">{formatAmount(s.transaction.amount, s.transaction.currency)}</span> ·{' '}
                    {t('match.confidence', { percent: formatNumber(s.confidence * 100) })}
                  </div>
                </div>
                <button
                  type="button"
                  className="btn primary"
                  aria-label={t('match.confirmNamed', { name: s.transaction.name })}
                  disabled={busy}
                  onClick={() =>
                    void act(
                      () => confirm.mutateAsync({ params: { id: item.id }, body: { transactionId: s.transactionId } }),
                      t('match.confirmed', { name: s.transaction.name }),
                      t('match.confirmFailed'),
                    )
                  }
                >
                  {t('match.confirm')}
                </button>
                <button
                  type="button"
                  className="btn ghost"
                  aria-label={t('match.declineNamed', { name: s.transaction.name })}
                  disabled={busy}
                  onClick={() =>
                    void act(
                      () => decline.mutateAsync({ params: { id: item.id }, body: { transactionId: s.transactionId } }),
                      t('match.declined', { name: s.transaction.name }),
                      t('match.declineFailed'),
                    )
                  }
                >
                  {t('match.decline')}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {!tx && !item.suggestions.length && !isBusy(item.status) ? (
        <p className="faint">{item.status === 'no_match' ? t('match.noMatch') : t('match.none')}</p>
      ) : null}
      {!tx && !isBusy(item.status) && item.status !== 'deleted' ? <TransactionPicker item={item} disabled={busy} /> : null}
    </section>
  );
}
