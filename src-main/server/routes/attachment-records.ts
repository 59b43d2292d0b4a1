import type { FastifyInstance } from 'fastify';
import { attachmentRecordRoutes } from '../../../src-shared/contract/attachment-records';
import { blobStore, dataDirOf } from '../../infra/blob-store';
import type { Db } from '../../store/db';
import { attachUploadedFile, detachAttachment, getAttachment } from '../../store/transactions/attachments';
import { installJsonParser } from '../body';
import { registerRoute } from '../route';
import { JSON_LIMIT, receiveUpload, sendFile } from './uploads';

/** A transaction's receipts by their own ids (extensions; docs/decisions/0151-document-sync.md). */
export async function attachmentRecordRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  const blobs = blobStore(dataDir);
  // A receipt travels as base64 JSON: this plugin's scope takes bodies as large as a document upload's.
  installJsonParser(app, JSON_LIMIT);
  registerRoute(app, attachmentRecordRoutes.create, async ({ auth, body }) => {
    const file = await receiveUpload({ content: body.content, fileName: body.fileName ?? undefined });
    return attachUploadedFile(
      db,
      auth.teamId,
      { id: body.id, transactionId: body.transactionId, fileName: body.fileName ?? null, file },
      blobs,
    );
  });
  registerRoute(app, attachmentRecordRoutes.get, ({ auth, params }) => getAttachment(db, auth.teamId, params.id));
  registerRoute(app, attachmentRecordRoutes.delete, ({ auth, params }) => detachAttachment(db, auth.teamId, params.id, blobs));
  registerRoute(app, attachmentRecordRoutes.download, ({ auth, params, reply }) => {
    const a = getAttachment(db, auth.teamId, params.id);
    return sendFile(reply, dataDir, { sha256: a.sha256, mimetype: a.mimetype, fileName: a.fileName ?? a.sha256 });
  });
}
