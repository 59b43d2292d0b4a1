import multipart, { type MultipartFile, type MultipartValue } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { UploadBody } from '../../../src-shared/contract/documents';
import { detectType, MAX_FILE_BYTES } from '../../documents/detect';
import { readBlob, sha256 } from '../../infra/blob-store';
import { backgroundOf } from '../../runtime/background';
import type { Db } from '../../store/db';
import type { NewFile } from '../../store/documents/documents';
import { installJsonParser } from '../body';
import { contentDisposition } from '../content-disposition';
import { ApiError } from '../errors';

/**
 * Upload parsing for the document and inbox routes (docs/decisions/0082-document-storage.md): multipart/form-data,
 * raw bytes, or JSON with base64 content all become the contract's UploadBody before validation, so one schema
 * checks them and one handler stores them. Installed in the routes' own plugin scope: the rest of the API keeps
 * its 1 MiB JSON limit and its media types.
 */
const RAW = Symbol('raw upload');
const RAW_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic', 'image/heif', 'application/octet-stream'];
/** Base64 of 20 MiB plus the JSON around it. */
export const JSON_LIMIT = Math.ceil((MAX_FILE_BYTES * 4) / 3) + 64 * 1024;

export async function installUploadParsing(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: true,
    limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024 },
  });
  app.addContentTypeParser(RAW_TYPES, { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES }, (_request, body, done) => {
    done(null, (body as Buffer).length === 0 ? undefined : { [RAW]: body });
  });
  installJsonParser(app, JSON_LIMIT);
  app.addHook('preValidation', async (request) => {
    const body = request.body as Record<string | symbol, unknown> | undefined | null;
    if (!body || typeof body !== 'object') return;
    if (RAW in body) {
      const header = (name: string) => {
        const v = request.headers[name];
        if (typeof v !== 'string' || v === '') return undefined;
        try {
          return decodeURIComponent(v);
        } catch {
          return v;
        }
      };
      request.body = {
        fileName: header('x-filename'),
        title: header('x-title'),
        content: (body[RAW] as Buffer).toString('base64'),
      } satisfies Partial<UploadBody>;
      return;
    }
    if (!request.isMultipart()) return;
    const parts = Object.values(body).flat() as (MultipartFile | MultipartValue)[];
    const file = parts.find((p): p is MultipartFile => p?.type === 'file');
    const field = (name: string) => {
      const part = (body as Record<string, unknown>)[name] as MultipartValue | undefined;
      return part?.type === 'field' && typeof part.value === 'string' ? part.value : undefined;
    };
    const bytes = file ? await file.toBuffer() : undefined;
    if (file?.file.truncated) throw tooLarge();
    request.body = {
      fileName: field('fileName') ?? file?.filename,
      title: field('title'),
      folder: field('folder'),
      content: bytes && bytes.length > 0 ? bytes.toString('base64') : '',
    };
  });
}

const tooLarge = () =>
  new ApiError(413, 'Payload Too Large', `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`, 'Split or compress it');

/** The stored-file description of an upload: checked by its bytes (size, kind), hashed. */
export async function receiveUpload(body: UploadBody): Promise<NewFile> {
  const bytes = Buffer.from(body.content, 'base64');
  if (bytes.length === 0) throw new ApiError(422, 'Unprocessable Entity', 'The file is empty', 'body.content');
  if (bytes.length > MAX_FILE_BYTES) throw tooLarge();
  const type = await detectType(bytes);
  if (!type.ok)
    throw new ApiError(415, 'Unsupported Media Type', type.reason, type.detected ? `detected: ${type.detected}` : undefined);
  return {
    bytes,
    sha256: sha256(bytes),
    size: bytes.length,
    mimetype: type.mimetype,
    fileName: body.fileName ?? `upload.${type.ext}`,
  };
}

/** Wakes this process's document runner (runtime/background.ts) at once after an upload, if it runs here. */
export function kickDocumentRunner(db: Db): void {
  backgroundOf(db)?.documents?.kick();
}

/** Sends a stored file as an attachment download. */
export function sendFile(
  reply: FastifyReply,
  dataDir: string,
  file: { sha256: string; mimetype: string; fileName: string },
): FastifyReply {
  return reply
    .code(200)
    .header('content-type', file.mimetype)
    .header('content-disposition', contentDisposition('attachment', file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(readBlob(dataDir, file.sha256));
}
