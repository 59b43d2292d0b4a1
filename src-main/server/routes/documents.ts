import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documentRoutes, fileLinkRoute } from '../../../src-shared/contract/documents';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import { DocumentRunner, type DocumentRunnerOptions } from '../../documents/runner';
import { blobStore, dataDirOf } from '../../documents/storage';
import type { Db } from '../../store/db';
import { createDocument, deleteDocument, documentFile, getDocument, listDocuments, updateDocument } from '../../store/documents';
import { NotFound } from '../../store/errors';
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
} from '../../store/inbox';
import { createDownloadLink, resolveDownloadLink } from '../../store/stored-files';
import { registerRoute } from '../route';
import { installUploadParsing, receiveUpload, sendFile } from './uploads';

export interface DocumentsOptions extends DocumentRunnerOptions {
  /** Run extraction and matching in this process (default true; tests of other areas may turn it off). */
  runner?: boolean;
}

/** The document runner serving a database in this process (tests wait on it). */
const runners = new WeakMap<Db, DocumentRunner>();
export function documentRunnerOf(db: Db): DocumentRunner | undefined {
  return runners.get(db);
}

function linkUrl(request: FastifyRequest, token: string): string {
  return `${request.protocol}://${request.host}/v1/files/${token}`;
}

/**
 * Documents, the inbox and download links, with their background runner (docs/decisions/0082…0084). Files live in
 * the data dir beside the database.
 */
export async function documentRoutesPlugin(app: FastifyInstance, opts: { db: Db; documents?: DocumentsOptions }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  const blobs = blobStore(dataDir);
  const runner = new DocumentRunner(db, dataDir, opts.documents);
  runners.set(db, runner);
  if (opts.documents?.runner !== false) {
    app.addHook('onReady', async () => runner.start());
  }
  app.addHook('onClose', async () => runner.stop());
  await installUploadParsing(app);

  registerRoute(app, documentRoutes.list, ({ auth, query }) => listDocuments(db, auth.teamId, query));
  registerRoute(app, documentRoutes.get, ({ auth, params }) => getDocument(db, auth.teamId, params.id));
  registerRoute(app, documentRoutes.upload, async ({ auth, body }) => {
    const file = await receiveUpload(body);
    const doc = createDocument(db, auth.teamId, file, { title: body.title, folder: body.folder }, blobs);
    runner.kick();
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
    runner.kick();
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
