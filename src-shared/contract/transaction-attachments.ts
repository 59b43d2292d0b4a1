import { z } from 'zod';
import { PresignBody, PresignedUrl, UPLOAD_CONSUMES, UPLOAD_FORMS, UPLOAD_HEADERS, UploadBody } from './documents';
import { InboxItem } from './inbox';
import { idParams } from './list';
import { defineRoute } from './route';

/**
 * A transaction's attachments (its receipts; docs/decisions/0113-inbox-rules-screens.md). Attaching is an upload onto
 * the transaction (extension): the file becomes an inbox item matched to it in the same write, so it is attached,
 * found in the inbox like any receipt, and undone with `POST /v1/inbox/{id}/unmatch`. The hosted service's download
 * link to an attachment is served as it names it.
 */

const AttachmentParams = z.object({
  transactionId: z.string().min(1).max(200),
  attachmentId: z.string().min(1).max(200),
});

export const transactionAttachmentRoutes = {
  upload: defineRoute({
    method: 'POST',
    path: '/transactions/:id/attachments',
    tag: 'transactions',
    summary: 'Extension: attach a receipt (upload): it is kept as an inbox item matched to this transaction',
    description:
      'The same forms as an inbox upload (PDF, PNG, JPEG or HEIC, at most 20 MiB). The answer is the inbox item, done, ' +
      'naming the transaction and the attachment; the same file uploaded again onto the transaction answers that item.',
    scopes: ['inbox.write', 'transactions.write'],
    params: idParams(),
    body: UploadBody,
    consumes: UPLOAD_CONSUMES,
    bodyForms: UPLOAD_FORMS,
    documentedHeaders: UPLOAD_HEADERS,
    responses: { 201: InboxItem },
  }),
  presign: defineRoute({
    method: 'POST',
    path: '/transactions/:transactionId/attachments/:attachmentId/presigned-url',
    tag: 'transactions',
    summary: "A short-lived download link to a transaction's attachment",
    scopes: ['transactions.read'],
    params: AttachmentParams,
    body: PresignBody,
    responses: { 200: PresignedUrl },
  }),
};
