import multipart, { type MultipartFile, type MultipartValue } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { FieldError } from '../../../src-shared/contract/errors';
import { importRoutes } from '../../../src-shared/contract/import';
import { ImportRefused } from '../../../src-shared/domain/import/types';
import { sha256 } from '../../import/parse-file';
import { commitFile, commitSummary, previewFile } from '../../import/service';
import type { Db } from '../../store/db';
import { checkImportAccount } from '../../store/import/account';
import { getImportBatch, listBatchRows, listImportBatches } from '../../store/import/batches';
import { deleteImportMapping, listImportMappings } from '../../store/import/mappings';
import { createFromReviewItem, getReviewItem, linkReviewItem, listReviewItems, unlinkImported } from '../../store/import/review';
import { acceptTransfer, listTransferPairs, unpairTransfer } from '../../store/import/transfers';
import { undoImportBatch } from '../../store/import/undo';
import { getUpload, storeUpload } from '../../store/import/uploads';
import { installJsonParser } from '../body';
import { ApiError, unprocessable } from '../errors';
import { registerRoute } from '../route';

/**
 * Import routes (extension under /v1, docs/decisions/0060–0066). Uploads arrive as the raw file, multipart or JSON
 * base64; in this plugin's scope they become the contract's {fileName, content} before validation, with a 50 MiB
 * limit (the rest of the API keeps 1 MiB).
 */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
const RAW = Symbol('raw import file');
const RAW_TYPES = [
  'text/csv',
  'text/plain',
  'application/octet-stream',
  'application/xml',
  'text/xml',
  'application/x-ofx',
  'application/vnd.intu.qfx',
];

async function installImportBodies(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: true,
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  app.addContentTypeParser(RAW_TYPES, { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) => {
    done(null, (body as Buffer).length === 0 ? undefined : { [RAW]: body });
  });
  // Base64 of the largest file plus the JSON around it.
  installJsonParser(app, Math.ceil((MAX_IMPORT_BYTES * 4) / 3) + 64 * 1024);
  app.addHook('preValidation', async (request) => {
    const body = request.body as Record<string | symbol, unknown> | undefined | null;
    if (!body || typeof body !== 'object') return;
    if (RAW in body) {
      const name = request.headers['x-filename'];
      let fileName: string | undefined;
      if (typeof name === 'string' && name !== '') {
        try {
          fileName = decodeURIComponent(name);
        } catch {
          fileName = name;
        }
      }
      request.body = { ...(fileName ? { fileName } : {}), content: (body[RAW] as Buffer).toString('base64') };
      return;
    }
    if (!request.isMultipart()) return;
    const parts = Object.values(body).flat() as (MultipartFile | MultipartValue)[];
    const file = parts.find((p): p is MultipartFile => p?.type === 'file');
    const bytes = file ? await file.toBuffer() : undefined;
    if (file?.file.truncated) throw new ApiError(413, 'Payload Too Large', 'The file is larger than 50 MiB');
    const field = (body as Record<string, MultipartValue | undefined>).fileName;
    request.body = {
      fileName: field?.type === 'field' && typeof field.value === 'string' ? field.value : file?.filename,
      content: bytes && bytes.length > 0 ? bytes.toString('base64') : '',
    };
  });
}

/** A file the import refused: 422 with one entry per problem, each naming its line (or the statement's account). */
function refused(err: ImportRefused): ApiError {
  const fields: FieldError[] = err.problems.slice(0, 200).map((p) => ({
    location: 'body',
    path: p.line !== null ? `line ${p.line}` : (p.field ?? ''),
    message: `${p.line !== null ? `line ${p.line}: ` : ''}${p.field ? `${p.field}: ` : ''}${p.message}`,
  }));
  return unprocessable(
    err.message,
    fields
      .map((f) => f.message)
      .slice(0, 20)
      .join('; '),
    fields,
  );
}

async function guard<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ImportRefused) throw refused(err);
    throw err;
  }
}

export async function importRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  await installImportBodies(app);

  registerRoute(app, importRoutes.upload, ({ auth, query, body }) =>
    guard(async () => {
      const account = query.bankAccountId ?? null;
      if (account) checkImportAccount(db, auth.teamId, account, 'bankAccountId');
      const bytes = Buffer.from(body.content, 'base64');
      if (bytes.length === 0) throw unprocessable('The file is empty', 'body.content');
      const fileName = body.fileName ?? null;
      const { preview } = await previewFile(db, auth.teamId, account, bytes, {
        fileName,
        mappingName: query.mappingName,
        encoding: query.encoding,
        rows: query.rows,
        splitBatches: query.splitBatches,
      });
      const uploadId = storeUpload(db, auth.teamId, {
        bankAccountId: account,
        fileName,
        sha256: sha256(bytes),
        content: bytes,
      });
      return { uploadId, ...preview };
    }),
  );
  registerRoute(app, importRoutes.preview, ({ auth, params, body }) =>
    guard(async () => {
      const upload = getUpload(db, auth.teamId, params.id);
      const { preview } = await previewFile(db, auth.teamId, upload.bankAccountId, upload.content, {
        ...body,
        fileName: upload.fileName,
      });
      return { uploadId: upload.id, ...preview };
    }),
  );
  registerRoute(app, importRoutes.commit, ({ auth, params, body }) =>
    guard(async () => {
      const upload = getUpload(db, auth.teamId, params.id);
      return commitSummary(
        await commitFile(db, auth.teamId, upload.bankAccountId, upload.content, { ...body, fileName: upload.fileName }),
      );
    }),
  );
  registerRoute(app, importRoutes.listBatches, ({ auth, query }) => listImportBatches(db, auth.teamId, query));
  registerRoute(app, importRoutes.getBatch, ({ auth, params }) => getImportBatch(db, auth.teamId, params.id));
  registerRoute(app, importRoutes.batchRows, ({ auth, params, query }) => listBatchRows(db, auth.teamId, params.id, query));
  registerRoute(app, importRoutes.undoBatch, ({ auth, params }) => undoImportBatch(db, auth.teamId, params.id));
  registerRoute(app, importRoutes.listReview, ({ auth, query }) => listReviewItems(db, auth.teamId, query));
  registerRoute(app, importRoutes.getReview, ({ auth, params }) => getReviewItem(db, auth.teamId, params.id));
  registerRoute(app, importRoutes.linkReview, ({ auth, params, body }) =>
    linkReviewItem(db, auth.teamId, params.id, body.transactionId),
  );
  registerRoute(app, importRoutes.createReview, ({ auth, params }) => createFromReviewItem(db, auth.teamId, params.id));
  registerRoute(app, importRoutes.unlink, ({ auth, params }) => unlinkImported(db, auth.teamId, params.id));
  registerRoute(app, importRoutes.listMappings, ({ auth, query }) => ({
    data: listImportMappings(db, auth.teamId, query.bankAccountId),
  }));
  registerRoute(app, importRoutes.deleteMapping, ({ auth, params, reply }) => {
    deleteImportMapping(db, auth.teamId, params.id);
    reply.code(204);
    return null;
  });
  registerRoute(app, importRoutes.listTransfers, ({ auth, query }) => ({
    data: listTransferPairs(db, auth.teamId, { status: query.status, accountId: query.bankAccountId, batchId: query.batchId }),
  }));
  registerRoute(app, importRoutes.acceptTransfer, ({ auth, params }) => acceptTransfer(db, auth.teamId, params.id));
  registerRoute(app, importRoutes.unpairTransfer, ({ auth, params }) => unpairTransfer(db, auth.teamId, params.id));
}
