/**
 * A receipt's page (`/inbox/<id>`): its merchant, amount and status at the top with what can be done (archive or
 * bring back, delete); where it stands with a transaction (suggestions to confirm or decline, the match to undo);
 * a received e-invoice as the invoice its XML states; the fields read from it to correct; and beside them the file.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type InboxItem, inboxRoutes } from '../../../src-shared/contract/inbox';
import { ReceivedEInvoice } from '../../components/ReceivedEInvoice';
import { RecordPage } from '../../components/RecordPage';
import { ConfirmDialog } from '../../components/ui';
import { useFile } from '../../data/use-file';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { useToasts } from '../../stores/toasts';
import { FilePreview } from './FilePreview';
import { StatusPill } from './inbox-columns';
import { canRestore, receiptName } from './inbox-view';
import { MatchCard } from './MatchCard';
import { ReceiptFields } from './ReceiptFields';

export function InboxItemPage({ id }: { id: string }) {
  const { t } = useTranslation('inbox');
  const record = useRecord(inboxRoutes.get, { id });
  return (
    <RecordPage record={record} namespace="inbox" listPath="/inbox" name={receiptName}>
      {(item, breadcrumb) => (
        <div className="page inbox-item" data-inbox-id={item.id} data-status={item.status}>
          {breadcrumb}
          <header className="page-header">
            <div>
              <h1>
                {receiptName(item)} <StatusPill status={item.status} t={t} />
              </h1>
              <p>
                {item.amount !== null ? <span className="money">{formatAmount(item.amount, item.currency)}</span> : null}
                {item.amount !== null && item.date ? ' · ' : null}
                {item.date ? formatDate(item.date) : null}
                {item.amount === null && !item.date ? item.fileName : null}
              </p>
            </div>
            <ItemCommands item={item} />
          </header>
          <div className="inbox-split">
            <div className="inbox-main">
              <MatchCard item={item} />
              {item.eInvoice ? <ReceivedEInvoice eInvoice={item.eInvoice} currency={item.currency ?? 'EUR'} /> : null}
              <ReceiptFields item={item} />
            </div>
            <ReceiptFile item={item} />
          </div>
        </div>
      )}
    </RecordPage>
  );
}

function ReceiptFile({ item }: { item: InboxItem }) {
  const { t } = useTranslation('inbox');
  // An item's file never changes: its size keys it.
  const file = useFile(inboxRoutes.download, { id: item.id }, String(item.size));
  return (
    <section className="card inbox-file" aria-labelledby="inbox-file-title">
      <h2 id="inbox-file-title">{t('preview.title')}</h2>
      <FilePreview
        blob={file.data}
        error={file.error}
        onRetry={() => void file.refetch()}
        fileName={item.fileName}
        label={t('preview.label', { name: receiptName(item) })}
      />
    </section>
  );
}

function ItemCommands({ item }: { item: InboxItem }) {
  const { t } = useTranslation('inbox');
  const update = useWrite(inboxRoutes.update);
  const remove = useWrite(inboxRoutes.delete);
  const navigate = useRouter((r) => r.navigate);
  const toast = useToasts();
  const [deleting, setDeleting] = useState(false);
  const setStatus = (status: 'archived' | 'pending', done: string) =>
    update
      .mutateAsync({ params: { id: item.id }, body: { status } })
      .then(() => toast.show(done))
      .catch((err) => toast.error(err, t('commands.failed')));

  return (
    <div className="header-actions">
      {canRestore(item.status) ? (
        <button type="button" className="btn" onClick={() => void setStatus('pending', t('commands.restored'))}>
          {t('commands.restore')}
        </button>
      ) : item.status !== 'done' ? (
        <button type="button" className="btn" onClick={() => void setStatus('archived', t('commands.archived'))}>
          {t('commands.archive')}
        </button>
      ) : null}
      <button type="button" className="btn danger" onClick={() => setDeleting(true)}>
        {t('common:delete')}
      </button>
      {deleting ? (
        <ConfirmDialog
          title={t('commands.deleteTitle', { name: receiptName(item) })}
          body={item.transaction ? t('commands.deleteMatched', { name: item.transaction.name }) : t('commands.deleteText')}
          confirmLabel={t('common:delete')}
          danger
          busy={remove.isPending}
          onConfirm={() =>
            void remove
              .mutateAsync({ params: { id: item.id } })
              .then(() => {
                toast.show(t('commands.deleted', { name: receiptName(item) }));
                navigate('/inbox');
              })
              .catch((err) => {
                setDeleting(false);
                toast.error(err, t('commands.failed'));
              })
          }
          onCancel={() => setDeleting(false)}
        />
      ) : null}
    </div>
  );
}
