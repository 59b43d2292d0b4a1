import { z } from 'zod';
import { ClientId } from './common';
import { FileName, UploadBody } from './documents';
import { idParams } from './list';
import { defineRoute } from './route';

/**
 * A transaction's receipts as records of their own (extensions; docs/decisions/0151-document-sync.md): what a sync
 * replica needs to attach a receipt, file and all, to the remote's copy of a transaction, to detach it, and to fetch
 * its file. A receipt is attached or detached, never edited. The transaction's own read lists its attachments as the
 * spec shows them.
 */
export const TransactionAttachment = z
  .object({
    id: z.string(),
    transactionId: z.string(),
    sha256: z.string(),
    fileName: z.string().nullable(),
    size: z.number().int(),
    mimetype: z.string(),
  })
  .meta({ id: 'TransactionAttachment' });
export type TransactionAttachment = z.infer<typeof TransactionAttachment>;

export const TransactionAttachmentCreate = z.strictObject({
  id: ClientId.optional(),
  transactionId: z.string().min(1).max(200),
  fileName: FileName.nullable().optional(),
  content: UploadBody.shape.content,
});

const params = idParams();

export const attachmentRecordRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/transaction-attachments',
    tag: 'transactions',
    summary: 'Attach a receipt (the file, base64) to a transaction (extension)',
    description: 'PDF, PNG, JPEG or HEIC, at most 20 MiB, recognized by content; the transaction becomes fulfilled.',
    scopes: ['transactions.write'],
    body: TransactionAttachmentCreate,
    responses: { 201: TransactionAttachment },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/transaction-attachments/:id',
    tag: 'transactions',
    summary: "A receipt's metadata (extension)",
    scopes: ['transactions.read'],
    params,
    responses: { 200: TransactionAttachment },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/transaction-attachments/:id',
    tag: 'transactions',
    summary: 'Detach a receipt from its transaction (extension)',
    scopes: ['transactions.write'],
    params,
    responses: { 200: TransactionAttachment },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/transaction-attachments/:id/download',
    tag: 'transactions',
    summary: "The receipt's file (extension)",
    scopes: ['transactions.read'],
    params,
    responses: { 200: z.string().describe('the file bytes, with its media type') },
  }),
};
