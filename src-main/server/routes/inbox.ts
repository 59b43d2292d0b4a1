import type { FastifyInstance } from 'fastify';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import { blobStore, dataDirOf } from '../../infra/blob-store';
import type { Db } from '../../store/db';
import { confirmMatch, declineMatch, unmatch } from '../../store/inbox/decisions';
import { getInboxItem, inboxFile, listInbox } from '../../store/inbox/items';
import { createInboxItem, deleteInboxItem, updateInboxItem } from '../../store/inbox/writes';
import { registerRoute } from '../route';
import { presignedLink } from './file-links';
import { installUploadParsing, kickDocumentRunner, receiveUpload, sendFile } from './uploads';

/**
 * The inbox: receipts uploaded for matching with transactions (docs/decisions/0084-inbox-matching.md). Their files
 * are stored and extracted like documents; the same background runner (runtime/background.ts) matches them.
 */
export async function inboxRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  const blobs = blobStore(dataDir);
  await installUploadParsing(app);

  registerRoute(app, inboxRoutes.list, ({ auth, query }) => listInbox(db, auth.teamId, query));
  registerRoute(app, inboxRoutes.get, ({ auth, params }) => getInboxItem(db, auth.teamId, params.id));
  registerRoute(app, inboxRoutes.upload, async ({ auth, body }) => {
    const file = await receiveUpload(body);
    const item = createInboxItem(db, auth.teamId, file, { title: body.title }, blobs);
    kickDocumentRunner(db);
    return item;
  });
  registerRoute(app, inboxRoutes.update, ({ auth, params, body }) => updateInboxItem(db, auth.teamId, params.id, body));
  registerRoute(app, inboxRoutes.delete, ({ auth, params }) => deleteInboxItem(db, auth.teamId, params.id, blobs));
  registerRoute(app, inboxRoutes.download, ({ auth, params, reply }) =>
    sendFile(reply, dataDir, inboxFile(db, auth.teamId, params.id)),
  );
  registerRoute(app, inboxRoutes.presign, ({ auth, params, body, request }) => {
    inboxFile(db, auth.teamId, params.id);
    return presignedLink(db, request, auth.teamId, { entity: 'inbox_item', id: params.id }, body.expiresIn);
  });
  registerRoute(app, inboxRoutes.confirm, ({ auth, params, body }) =>
    confirmMatch(db, auth.teamId, params.id, body.transactionId),
  );
  registerRoute(app, inboxRoutes.decline, ({ auth, params, body }) =>
    declineMatch(db, auth.teamId, params.id, body.transactionId),
  );
  registerRoute(app, inboxRoutes.unmatch, ({ auth, params }) => unmatch(db, auth.teamId, params.id));
}
