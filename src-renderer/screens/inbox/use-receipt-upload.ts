/**
 * Sending receipts: to the inbox (`POST /v1/inbox`, where they are read and matched) or onto one transaction
 * (`POST /v1/transactions/{id}/attachments`: attached at once and kept in the inbox as matched). Files go one after
 * another, each read as base64 with its progress shown; a failure is said in a toast and the others go on.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type InboxItem, inboxRoutes } from '../../../src-shared/contract/inbox';
import { transactionAttachmentRoutes } from '../../../src-shared/contract/transaction-attachments';
import { invalidateEntities } from '../../data/query-client';
import { api } from '../../lib/api';
import { readBase64 } from '../../lib/read-file';
import { serialQueue } from '../../lib/serial-queue';
import { useToasts } from '../../stores/toasts';

export interface Upload {
  key: number;
  name: string;
  /** Share of the file read (0 to 1); null while it is being sent. */
  share: number | null;
}

/** Receipts the inbox takes: PDFs and pictures (the server decides by the bytes). */
export const RECEIPT_TYPES = 'application/pdf,image/png,image/jpeg,image/heic,image/heif';

let nextKey = 1;

export function useReceiptUpload(): {
  uploads: Upload[];
  /** Sends a file; with a transaction, attaches it there. Resolves with the inbox item, or null when it failed. */
  send(file: File, transaction?: { id: string; name: string }): Promise<InboxItem | null>;
} {
  const { t } = useTranslation('inbox');
  const client = useQueryClient();
  const toast = useToasts();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const queue = useRef(serialQueue()).current;
  const update = (key: number, share: number | null) =>
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, share } : u)));

  function send(file: File, transaction?: { id: string; name: string }): Promise<InboxItem | null> {
    const key = nextKey++;
    setUploads((all) => [...all, { key, name: file.name, share: 0 }]);
    return queue.run(async () => {
      try {
        const content = await readBase64(file, (share) => update(key, share));
        update(key, null);
        const body = { fileName: file.name, content };
        const item = transaction
          ? await api.call(transactionAttachmentRoutes.upload, { params: { id: transaction.id }, body })
          : await api.call(inboxRoutes.upload, { body });
        // The item, and the transaction it may be attached to (its review state moves on).
        await invalidateEntities(client, ['inbox_item', 'transaction']);
        if (transaction) {
          toast.show(t('attach.done', { file: file.name, name: transaction.name }), {
            action: { label: t('attach.undo'), run: () => void undoAttach(item.id) },
          });
        } else toast.show(t('upload.done', { file: file.name }));
        return item;
      } catch (err) {
        toast.error(err, transaction ? t('attach.failed', { file: file.name }) : t('upload.failed', { file: file.name }));
        return null;
      } finally {
        setUploads((all) => all.filter((u) => u.key !== key));
      }
    });
  }

  async function undoAttach(itemId: string) {
    try {
      await api.call(inboxRoutes.unmatch, { params: { id: itemId } });
      await api.call(inboxRoutes.delete, { params: { id: itemId } });
      await invalidateEntities(client, ['inbox_item', 'transaction']);
      toast.show(t('attach.undone'));
    } catch (err) {
      toast.error(err, t('attach.undoFailed'));
    }
  }

  return { uploads, send };
}
