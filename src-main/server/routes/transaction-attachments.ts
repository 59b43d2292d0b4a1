import type { FastifyInstance } from 'fastify';
import { transactionAttachmentRoutes } from '../../../src-shared/contract/transaction-attachments';
import { blobStore, dataDirOf } from '../../infra/blob-store';
import type { Db } from '../../store/db';
import { uploadToTransaction } from '../../store/inbox/attach-upload';
import { attachmentFile } from '../../store/transactions/attachments';
import { registerRoute } from '../route';
import { presignedLink } from './file-links';
import { installUploadParsing, kickDocumentRunner, receiveUpload } from './uploads';

/** A transaction's receipts: attach one by upload, and the download link to one (docs/decisions/0113). */
export async function transactionAttachmentRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const blobs = blobStore(dataDirOf(db));
  await installUploadParsing(app);

  registerRoute(app, transactionAttachmentRoutes.upload, async ({ auth, params, body }) => {
    const file = await receiveUpload(body);
    const item = uploadToTransaction(db, auth.teamId, params.id, file, blobs);
    kickDocumentRunner(db);
    return item;
  });
  registerRoute(app, transactionAttachmentRoutes.presign, ({ auth, params, body, request }) => {
    attachmentFile(db, auth.teamId, params.attachmentId, params.transactionId);
    const owner = { entity: 'transaction_attachment', id: params.attachmentId } as const;
    return presignedLink(db, request, auth.teamId, owner, body.expiresIn);
  });
}
