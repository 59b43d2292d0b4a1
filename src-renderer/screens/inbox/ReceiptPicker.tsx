/**
 * The other side of matching by hand (issue 36): from a transaction's panel, one of the receipts waiting in the inbox
 * (not matched to anything: pending, suggested for something, or found no match) is attached to it. Those suggested
 * for this transaction come first.
 */
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import type { Transaction } from '../../../src-shared/contract/transactions';
import { ErrorBanner, SearchInputField } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { receiptName } from './inbox-view';

const WAITING = ['pending', 'suggested_match', 'no_match'] as const;

export function ReceiptPicker({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useTranslation('inbox');
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const query = useDeferredValue(q.trim());
  const waiting = useRead(
    inboxRoutes.list,
    { query: { status: [...WAITING], pageSize: 20, ...(query ? { q: query } : {}) } },
    { enabled: open },
  );
  const confirm = useWrite(inboxRoutes.confirm);
  const toast = useToasts();
  const items = [...(waiting.data?.data ?? [])].sort(
    (a, b) =>
      Number(b.suggestions.some((s) => s.transactionId === tx.id)) - Number(a.suggestions.some((s) => s.transactionId === tx.id)),
  );

  if (!open) {
    return (
      <button type="button" className="btn small" onClick={() => setOpen(true)}>
        {t('attach.fromInbox')}
      </button>
    );
  }
  return (
    <div className="match-picker" data-testid="tx-receipt-pick">
      <SearchInputField label={t('attach.fromInboxSearch')} value={q} onChange={setQ} />
      {waiting.error ? <ErrorBanner error={waiting.error} /> : null}
      {waiting.data ? (
        items.length ? (
          <ul className="match-list" aria-label={t('attach.fromInboxList')}>
            {items.map((item) => (
              <li key={item.id} className="match-row" data-inbox-id={item.id}>
                <div className="grow">
                  <div className="cell-name">{receiptName(item)}</div>
                  <div className="faint small">
                    {[
                      item.date ? formatDate(item.date.slice(0, 10)) : null,
                      item.amount !== null && item.currency ? formatAmount(item.amount, item.currency) : null,
                      item.fileName,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </div>
                </div>
                <button
                  type="button"
                  className="btn"
                  aria-label={t('attach.takeNamed', { file: item.fileName })}
                  disabled={confirm.isPending}
                  onClick={() =>
                    confirm
                      .mutateAsync({ params: { id: item.id }, body: { transactionId: tx.id } })
                      .then(() => toast.show(t('attach.done', { file: item.fileName, name: tx.name })))
                      .catch((err) => toast.error(err, t('attach.failed', { file: item.fileName })))
                  }
                >
                  {t('attach.take')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="faint">{t('attach.inboxNone')}</p>
        )
      ) : null}
    </div>
  );
}
