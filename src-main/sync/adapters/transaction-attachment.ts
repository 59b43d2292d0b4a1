import type { SyncAdapter } from './adapter';
import { asIs, num, str } from './values';

export const transactionAttachment: SyncAdapter<'transaction_attachment'> = {
  entity: 'transaction_attachment',
  fromApi: (r) => ({
    transactionId: str(r.transactionId) ?? '',
    sha256: str(r.sha256) ?? '',
    size: num(r.size) ?? 0,
    mimetype: str(r.mimetype) ?? '',
    fileName: str(r.fileName),
  }),
  body: asIs,
  // Attached with its file, detached; never edited (extension routes; pulled through the feed only).
  finops: {
    list: null,
    get: '/transaction-attachments/:id',
    create: { path: '/transaction-attachments', clientId: true, idempotencyKey: false, fields: ['transactionId', 'fileName'] },
    update: null,
    delete: '/transaction-attachments/:id',
  },
  // Its transactions take attachment ids and paths, not files: a receipt's metadata without the receipt would
  // point at nothing there. Receipts stay local.
  hosted: null,
};
