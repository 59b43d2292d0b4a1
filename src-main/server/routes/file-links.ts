import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileLinkRoute } from '../../../src-shared/contract/documents';
import { dataDirOf } from '../../infra/blob-store';
import type { Db } from '../../store/db';
import { documentFile } from '../../store/documents/documents';
import { NotFound } from '../../store/errors';
import { createDownloadLink, resolveDownloadLink } from '../../store/files/stored-files';
import { inboxFile } from '../../store/inbox/items';
import { attachmentFile } from '../../store/transactions/attachments';
import { registerRoute } from '../route';
import { sendFile } from './uploads';

/**
 * Download links (docs/decisions/0082-document-storage.md): the presigned-url routes of documents, the inbox and
 * transaction attachments mint them; `/v1/files/:token` serves them to whoever holds the token, with no other credential, until it expires.
 */

/** A link to a stored record's file, as the presigned-url routes answer it. */
export function presignedLink(
  db: Db,
  request: FastifyRequest,
  teamId: string,
  owner: { entity: 'document' | 'inbox_item' | 'transaction_attachment'; id: string },
  expiresIn: number,
): { url: string; expiresAt: string } {
  const link = createDownloadLink(db, teamId, owner, expiresIn);
  return { url: `${request.protocol}://${request.host}/v1/files/${link.token}`, expiresAt: link.expiresAt };
}

export async function fileLinkRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  // The link is the credential until it expires; the record it names must still exist.
  registerRoute(app, fileLinkRoute, ({ params, reply }) => {
    const link = resolveDownloadLink(db, params.token);
    const file =
      link.entity === 'document'
        ? documentFile(db, link.teamId, link.id)
        : link.entity === 'inbox_item'
          ? inboxFile(db, link.teamId, link.id)
          : link.entity === 'transaction_attachment'
            ? attachmentFile(db, link.teamId, link.id)
            : undefined;
    if (!file) throw new NotFound('download link', 'token');
    return sendFile(reply, dataDir, file);
  });
}
