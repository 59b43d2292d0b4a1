/**
 * A transaction's receipts, in its detail panel: the files attached (each shown in place on request, through the
 * attachment's download link), and a place to drop or choose one — attached at once and kept in the inbox as
 * matched, so a reviewed expense waiting for its receipt ("needs receipt") is done — or one already waiting in the
 * inbox taken for it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { transactionAttachmentRoutes } from '../../../src-shared/contract/transaction-attachments';
import type { Transaction } from '../../../src-shared/contract/transactions';
import { FileDrop } from '../../components/FileDrop';
import { Progress } from '../../components/Progress';
import { useLinkedFile } from '../../data/use-linked-file';
import { formatNumber } from '../../lib/format';
import { FilePreview } from './FilePreview';
import { ReceiptPicker } from './ReceiptPicker';
import { RECEIPT_TYPES, useReceiptUpload } from './use-receipt-upload';

type Attachment = NonNullable<Transaction['attachments']>[number];

export function TransactionReceipts({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useTranslation('inbox');
  const upload = useReceiptUpload();
  const attachments = tx.attachments ?? [];
  return (
    <section className="form-section" aria-labelledby="tx-receipts-title" data-testid="tx-receipts">
      <h3 id="tx-receipts-title">{t('attach.title')}</h3>
      {tx.reviewState === 'needs_receipt' ? (
        <div className="banner warn" role="note">
          {t('attach.needsReceipt')}
        </div>
      ) : null}
      {attachments.length ? (
        <ul className="attachments">
          {attachments.map((a) => (
            <AttachmentRow key={a.id} transactionId={tx.id} attachment={a} />
          ))}
        </ul>
      ) : (
        <p className="faint">{t('attach.none')}</p>
      )}
      <FileDrop
        inputLabel={t('attach.input')}
        accept={RECEIPT_TYPES}
        multiple
        onFile={(file) => void upload.send(file, { id: tx.id, name: tx.name })}
      >
        {t('attach.invite')}
      </FileDrop>
      <ReceiptPicker key={tx.id} transaction={tx} />
      {upload.uploads.map((u) => (
        <Progress
          key={u.key}
          label={t(u.share === null ? 'upload.sending' : 'upload.reading', { file: u.name })}
          share={u.share}
        />
      ))}
    </section>
  );
}

function AttachmentRow({ transactionId, attachment: a }: { transactionId: string; attachment: Attachment }) {
  const { t } = useTranslation('inbox');
  const [open, setOpen] = useState(false);
  const name = a.filename ?? a.path[a.path.length - 1] ?? a.id;
  const file = useLinkedFile(transactionAttachmentRoutes.presign, { transactionId, attachmentId: a.id }, a.id, { enabled: open });
  return (
    <li className="attachment" data-attachment-id={a.id}>
      <div className="attachment-line">
        <span className="ellipsis grow">{name}</span>
        <span className="faint small">{t('attach.size', { size: formatNumber(a.size / 1024, 1) })}</span>
        <button type="button" className="btn small" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('attach.hide') : t('attach.show')}
        </button>
      </div>
      {open ? (
        <FilePreview
          blob={file.data}
          error={file.error}
          onRetry={() => void file.refetch()}
          fileName={name}
          label={t('preview.label', { name })}
        />
      ) : null}
    </li>
  );
}
