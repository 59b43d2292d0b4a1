import type { FastifyInstance } from 'fastify';
import { documentRoutes } from '../../../src-shared/contract/documents';
import { blobStore, dataDirOf } from '../../infra/blob-store';
import type { Db } from '../../store/db';
import {
  createDocument,
  deleteDocument,
  documentFile,
  getDocument,
  listDocuments,
  updateDocument,
} from '../../store/documents/documents';
import { registerRoute } from '../route';
import { presignedLink } from './file-links';
import { installUploadParsing, kickDocumentRunner, receiveUpload, sendFile } from './uploads';

/**
 * Documents (docs/decisions/0082, 0083). Files live in the data dir beside the database; their background runner is
 * the app's (runtime/background.ts).
 */
export async function documentRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  const blobs = blobStore(dataDir);
  await installUploadParsing(app);

  registerRoute(app, documentRoutes.list, ({ auth, query }) => listDocuments(db, auth.teamId, query));
  registerRoute(app, documentRoutes.get, ({ auth, params }) => getDocument(db, auth.teamId, params.id));
  registerRoute(app, documentRoutes.upload, async ({ auth, body }) => {
    const file = await receiveUpload(body);
    const doc = createDocument(db, auth.teamId, file, { title: body.title, folder: body.folder, id: body.id }, blobs);
    kickDocumentRunner(db);
    return doc;
  });
  registerRoute(app, documentRoutes.update, ({ auth, params, body }) => updateDocument(db, auth.teamId, params.id, body));
  registerRoute(app, documentRoutes.delete, ({ auth, params }) => deleteDocument(db, auth.teamId, params.id, blobs));
  registerRoute(app, documentRoutes.download, ({ auth, params, reply }) =>
    sendFile(reply, dataDir, documentFile(db, auth.teamId, params.id)),
  );
  registerRoute(app, documentRoutes.presign, ({ auth, params, body, request }) => {
    documentFile(db, auth.teamId, params.id);
    return presignedLink(db, request, auth.teamId, { entity: 'document', id: params.id }, body.expiresIn);
  });
}
