import { z } from 'zod';
import { multiValue, PageSize } from './common';
import {
  PresignBody,
  PresignedUrl,
  ReceivedEInvoice,
  UPLOAD_CONSUMES,
  UPLOAD_FORMS,
  UPLOAD_HEADERS,
  UploadBody,
} from './documents';
import { CursorQuery, idParams, pageOf, type SortOrder, sortParam } from './list';
import { defineRoute } from './route';
import { Currency } from './tracker';

/**
 * The document inbox: receipts waiting to be matched to bank transactions, with the hosted routes and statuses plus
 * upload, download and the match actions as extensions (docs/decisions/0084-inbox-matching.md).
 *
 * Status flow: new (uploaded) → processing (text being extracted) → analyzing (matching) → pending (no match yet),
 * suggested_match (a person should confirm) or done (matched: the file is attached to the transaction). Pending
 * items older than 90 days become no_match. archived, deleted and other are set by people.
 */
export const INBOX_STATUSES = [
  'new',
  'processing',
  'analyzing',
  'pending',
  'suggested_match',
  'no_match',
  'done',
  'archived',
  'deleted',
  'other',
] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/** The statuses a client may set with PATCH (done comes from confirm; the others from the pipeline). */
export const SETTABLE_INBOX_STATUSES = ['pending', 'archived', 'deleted', 'other'] as const;

const TransactionRef = z.object({
  id: z.string(),
  name: z.string(),
  amount: z.number(),
  currency: z.string(),
  date: z.string(),
});

export const InboxSuggestion = z
  .object({
    transactionId: z.string(),
    transaction: TransactionRef,
    confidence: z.number().describe('0 to 1'),
    matchType: z.enum(['auto', 'suggested', 'manual']),
    scores: z.object({ amount: z.number(), currency: z.number(), date: z.number(), name: z.number() }),
  })
  .meta({ id: 'InboxSuggestion' });

export const InboxItem = z
  .object({
    id: z.string(),
    fileName: z.string(),
    displayName: z.string().nullable().describe('the merchant, as found or as set'),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    taxAmount: z.number().nullable(),
    taxRate: z.number().nullable(),
    contentType: z.string(),
    size: z.number().int(),
    date: z.string().nullable(),
    status: z.enum(INBOX_STATUSES),
    website: z.string().nullable(),
    description: z.string().nullable(),
    transaction: TransactionRef.nullable().describe('the matched transaction (status done)'),
    attachmentId: z.string().nullable().describe("the file's attachment on that transaction"),
    suggestions: z.array(InboxSuggestion).describe('open match suggestions, best first'),
    eInvoice: ReceivedEInvoice.nullable().describe(
      'extension: the file is an e-invoice (UBL, CII or a hybrid PDF), as its XML states it; null for other files',
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'InboxItem' });
export type InboxItem = z.infer<typeof InboxItem>;

export const INBOX_SORT_COLUMNS = ['created_at', 'date', 'amount', 'display_name'] as const;
export type InboxSort = SortOrder<(typeof INBOX_SORT_COLUMNS)[number]>;

export const InboxListQuery = z.object({
  q: z.string().max(200).optional().describe('full-text search over name, file name, description, website and text'),
  status: multiValue(z.enum(INBOX_STATUSES)).describe('default: every status but deleted'),
  sort: sortParam(INBOX_SORT_COLUMNS, 'created_at desc'),
  cursor: CursorQuery,
  pageSize: PageSize,
});
export type InboxListQuery = z.infer<typeof InboxListQuery>;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const InboxPatch = z.strictObject({
  displayName: z.preprocess(emptyToNull, z.string().trim().max(200).nullable()).optional(),
  amount: z.number().min(0).max(1e12).nullable().optional(),
  currency: Currency.optional(),
  date: z.iso.date().nullable().optional(),
  description: z.preprocess(emptyToNull, z.string().trim().max(2000).nullable()).optional(),
  website: z.preprocess(emptyToNull, z.string().trim().max(500).nullable()).optional(),
  status: z.enum(SETTABLE_INBOX_STATUSES).optional(),
});
export type InboxPatch = z.infer<typeof InboxPatch>;

export const MatchBody = z.strictObject({ transactionId: z.string().min(1).max(200) });

const InboxIdParams = idParams();

export const inboxRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/inbox',
    tag: 'inbox',
    summary: 'List and search inbox items (keyset cursor)',
    scopes: ['inbox.read'],
    query: InboxListQuery,
    responses: { 200: pageOf(InboxItem) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/inbox/:id',
    tag: 'inbox',
    summary: 'Retrieve an inbox item with its match suggestions',
    scopes: ['inbox.read'],
    params: InboxIdParams,
    responses: { 200: InboxItem },
  }),
  upload: defineRoute({
    method: 'POST',
    path: '/inbox',
    tag: 'inbox',
    summary: 'Upload a receipt into the inbox: multipart with a file part, the bare file, or JSON with base64 (extension)',
    description: 'PDF, PNG or JPEG, at most 20 MiB. The amount, currency, date and merchant are extracted, then matched.',
    scopes: ['inbox.write'],
    body: UploadBody,
    consumes: UPLOAD_CONSUMES,
    bodyForms: UPLOAD_FORMS,
    documentedHeaders: UPLOAD_HEADERS,
    responses: { 201: InboxItem },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/inbox/:id',
    tag: 'inbox',
    summary: 'Correct the found fields (matching runs again) or set a status (pending, archived, deleted, other)',
    scopes: ['inbox.write'],
    params: InboxIdParams,
    body: InboxPatch,
    responses: { 200: InboxItem },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/inbox/:id',
    tag: 'inbox',
    summary: 'Delete an inbox item (an attachment made from it stays on its transaction)',
    scopes: ['inbox.write'],
    params: InboxIdParams,
    responses: { 200: InboxItem },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/inbox/:id/download',
    tag: 'inbox',
    summary: 'The file itself (extension)',
    scopes: ['inbox.read'],
    params: InboxIdParams,
    responses: { 200: z.string().describe('the file bytes, with its media type') },
  }),
  presign: defineRoute({
    method: 'POST',
    path: '/inbox/:id/presigned-url',
    tag: 'inbox',
    summary: 'A short-lived download link to the file',
    scopes: ['inbox.read'],
    params: InboxIdParams,
    body: PresignBody,
    responses: { 200: PresignedUrl },
  }),
  confirm: defineRoute({
    method: 'POST',
    path: '/inbox/:id/confirm',
    tag: 'inbox',
    summary: "Match to a transaction (a suggestion's or any of the team's): the file is attached, the item is done (extension)",
    scopes: ['inbox.write', 'transactions.write'],
    params: InboxIdParams,
    body: MatchBody,
    responses: { 200: InboxItem },
  }),
  decline: defineRoute({
    method: 'POST',
    path: '/inbox/:id/decline',
    tag: 'inbox',
    summary: 'Decline a suggested transaction: it is not suggested for this item again (extension)',
    scopes: ['inbox.write'],
    params: InboxIdParams,
    body: MatchBody,
    responses: { 200: InboxItem },
  }),
  unmatch: defineRoute({
    method: 'POST',
    path: '/inbox/:id/unmatch',
    tag: 'inbox',
    summary: 'Undo a match: the attachment is removed from the transaction and the item waits again (extension)',
    scopes: ['inbox.write', 'transactions.write'],
    params: InboxIdParams,
    responses: { 200: InboxItem },
  }),
};
