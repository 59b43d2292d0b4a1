/**
 * A receipt matched by hand (issue 36): when none of the suggestions is its transaction, or none was found, the
 * person searches the team's transactions (name, counterparty, note, or an amount) and matches one. The server
 * attaches the file as it does for a confirmed suggestion (POST /inbox/{id}/confirm takes any of the team's).
 */
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type InboxItem, inboxRoutes } from '../../../src-shared/contract/inbox';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { ErrorBanner, SearchInputField } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate } from '../../lib/format';
import { useToasts } from '../../stores/toasts';

/** Below this many characters a search would list half the books. */
const MIN_QUERY = 2;

export function TransactionPicker({ item, disabled }: { item: InboxItem; disabled: boolean }) {
  const { t } = useTranslation('inbox');
  const [q, setQ] = useState('');
  const query = useDeferredValue(q.trim());
  const found = useRead(transactionRoutes.list, { query: { q: query, pageSize: 8 } }, { enabled: query.length >= MIN_QUERY });
  const confirm = useWrite(inboxRoutes.confirm);
  const toast = useToasts();
  const list = found.data?.data ?? [];

  return (
    <div className="match-picker" data-testid="inbox-pick">
      <SearchInputField label={t('match.pickLabel')} hint={t('match.pickHint')} value={q} onChange={setQ} />
      {found.error ? <ErrorBanner error={found.error} /> : null}
      {query.length >= MIN_QUERY && found.data ? (
        list.length ? (
          <ul className="match-list" aria-label={t('match.pickResults')}>
            {list.map((tx) => (
              <li key={tx.id} className="match-row" data-pick-id={tx.id}>
                <div className="grow">
                  <div className="cell-name">{tx.counterparty_name ?? tx.name}</div>
                  <div className="faint small">
                    {formatDate(tx.date.slice(0, 10))} · <span className="money">{formatAmount(tx.amount, tx.currency)}</span>
                    {tx.counterparty_name && tx.counterparty_name !== tx.name ? ` · ${tx.name}` : ''}
                  </div>
                </div>
                <button
                  type="button"
                  className="btn"
                  aria-label={t('match.pickNamed', { name: tx.name })}
                  disabled={disabled || confirm.isPending}
                  onClick={() =>
                    confirm
                      .mutateAsync({ params: { id: item.id }, body: { transactionId: tx.id } })
                      .then(() => toast.show(t('match.confirmed', { name: tx.name })))
                      .catch((err) => toast.error(err, t('match.confirmFailed')))
                  }
                >
                  {t('match.pick')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="faint">{t('match.pickNone')}</p>
        )
      ) : null}
    </div>
  );
}
