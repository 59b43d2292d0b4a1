import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documentRoutes, fileLinkRoute } from '../../../src-shared/contract/documents';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import { blobStore, dataDirOf } from '../../documents/storage';
import { backgroundOf } from '../../runtime/background';
import type { Db } from '../../store/db';
import {
  createDocument,
  deleteDocument,
  documentFile,
  getDocument,
  listDocuments,
  updateDocument,
} from '../../store/documents/documents';
import { NotFound } from '../../store/errors';
import { createDownloadLink, resolveDownloadLink } from '../../store/files/stored-files';
import {
  confirmMatch,
  createInboxItem,
  declineMatch,
  deleteInboxItem,
  getInboxItem,
  inboxFile,
  listInbox,
  unmatch,
  updateInboxItem,
} from '../../store/inbox/inbox';
import { registerRoute } from '../route';
import { installUploadParsing, receiveUpload, sendFile } from './uploads';

/** Wakes this process's document runner (runtime/background.ts) at once after an upload, if it runs here. */
function kickRunner(db: Db): void {
  backgroundOf(db)?.documents?.kick();
}

function linkUrl(request: FastifyRequest, token: string): string {
  return `${request.protocol}://${request.host}/v1/files/${token}`;
}

/**
 * Documents, the inbox and download links (docs/decisions/0082…0084). Files live in the data dir beside the
 * database; their background runner is the app's (runtime/background.ts).
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
    const doc = createDocument(db, auth.teamId, file, { title: body.title, folder: body.folder }, blobs);
    kickRunner(db);
    return doc;
  });
  registerRoute(app, documentRoutes.update, ({ auth, params, body }) => updateDocument(db, auth.teamId, params.id, body));
  registerRoute(app, documentRoutes.delete, ({ auth, params }) => deleteDocument(db, auth.teamId, params.id, blobs));
  registerRoute(app, documentRoutes.download, ({ auth, params, reply }) =>
    sendFile(reply, dataDir, documentFile(db, auth.teamId, params.id)),
  );
  registerRoute(app, documentRoutes.presign, ({ auth, params, body, request }) => {
    documentFile(db, auth.teamId, params.id);
    const link = createDownloadLink(db, auth.teamId, { entity: 'document', id: params.id }, body.expiresIn);
    return { url: linkUrl(request, link.token), expiresAt: link.expiresAt };
  });

  registerRoute(app, inboxRoutes.list, ({ auth, query }) => listInbox(db, auth.teamId, query));
  registerRoute(app, inboxRoutes.get, ({ auth, params }) => getInboxItem(db, auth.teamId, params.id));
  registerRoute(app, inboxRoutes.upload, async ({ auth, body }) => {
    const file = await receiveUpload(body);
    const item = createInboxItem(db, auth.teamId, file, { title: body.title }, blobs);
    kickRunner(db);
    return item;
  });
  registerRoute(app, inboxRoutes.update, ({ auth, params, body }) => updateInboxItem(db, auth.teamId, params.id, body));
  registerRoute(app, inboxRoutes.delete, ({ auth, params }) => deleteInboxItem(db, auth.teamId, params.id, blobs));
  registerRoute(app, inboxRoutes.download, ({ auth, params, reply }) =>
    sendFile(reply, dataDir, inboxFile(db, auth.teamId, params.id)),
  );
  registerRoute(app, inboxRoutes.presign, ({ auth, params, body, request }) => {
    inboxFile(db, auth.teamId, params.id);
    const link = createDownloadLink(db, auth.teamId, { entity: 'inbox_item', id: params.id }, body.expiresIn);
    return { url: linkUrl(request, link.token), expiresAt: link.expiresAt };
  });
  registerRoute(app, inboxRoutes.confirm, ({ auth, params, body }) =>
    confirmMatch(db, auth.teamId, params.id, body.transactionId),
  );
  registerRoute(app, inboxRoutes.decline, ({ auth, params, body }) =>
    declineMatch(db, auth.teamId, params.id, body.transactionId),
  );
  registerRoute(app, inboxRoutes.unmatch, ({ auth, params }) => unmatch(db, auth.teamId, params.id));

  // The link is the credential until it expires; the record it names must still exist.
  registerRoute(app, fileLinkRoute, ({ params, reply }) => {
    const link = resolveDownloadLink(db, params.token);
    const file =
      link.entity === 'document'
        ? documentFile(db, link.teamId, link.id)
        : link.entity === 'inbox_item'
          ? inboxFile(db, link.teamId, link.id)
          : undefined;
    if (!file) throw new NotFound('download link', 'token');
    return sendFile(reply, dataDir, file);
  });
}
