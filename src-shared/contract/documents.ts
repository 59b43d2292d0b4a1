import { z } from 'zod';
import { ClientId, multiValue, PageSize } from './common';
import { CursorQuery, idParams, pageOf, type SortOrder, sortParam } from './list';
import { type BodyMediaType, defineRoute } from './route';
import { FileNameHeader, uploadForms } from './upload-forms';

/**
 * Documents (the hosted "vault") with the hosted routes, plus the upload and download routes the hosted v1 lacks
 * (extensions; docs/decisions/0082-document-storage.md, 0083-document-extraction.md).
 *
 * Uploads come in three forms, all answered alike: `multipart/form-data` with one file part (and optional `title`,
 * `folder` fields); the raw bytes with their media type (or application/octet-stream) and the name in an
 * `X-Filename` header; or JSON `{fileName, content: <base64>, title?, folder?}`. The kind of file is decided from its
 * bytes, never its name: PDF, PNG or JPEG, at most 20 MiB; anything else is 415 saying what it is.
 */

export const PROCESSING_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const FileName = z
  .string()
  .trim()
  .min(1)
  .max(255, 'must be at most 255 characters')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused here.
  .refine((v) => !/[\\/\u0000-\u001f]/.test(v), 'must be a plain file name (no folders, no control characters)');

/** The normalized upload (what every form is turned into before validation). */
export const UploadBody = z.strictObject({
  fileName: z.preprocess(emptyToUndefined, FileName.optional()).describe('default: upload.<type>'),
  content: z
    .string()
    .min(1, 'must not be empty')
    .max(28_000_000, 'the file is larger than 20 MiB')
    .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'must be base64')
    .describe('the file, base64 (JSON form only)'),
  title: z.preprocess(emptyToUndefined, z.string().trim().max(255).optional()),
  folder: z
    .preprocess(emptyToUndefined, z.string().trim().max(500).optional())
    .describe('slash-separated folder path, e.g. receipts/2025'),
});
export type UploadBody = z.infer<typeof UploadBody>;

/** A document upload (JSON form) may choose its id, as a sync replica does (docs/decisions/0151-document-sync.md). */
export const DocumentUploadBody = UploadBody.extend({ id: ClientId.optional() });

export const UPLOAD_MEDIA_TYPES = [
  'application/json',
  'multipart/form-data',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/heic',
  'image/heif',
  'application/octet-stream',
] as const;

/** The route contract's media-type list names JSON and forms; uploads take files too (the server parses them). */
export const UPLOAD_CONSUMES = UPLOAD_MEDIA_TYPES as unknown as readonly BodyMediaType[];

/** The multipart and bare-file forms of an upload, as OpenAPI describes them (the JSON form is UploadBody). */
export const UPLOAD_FORMS = uploadForms({
  mediaTypes: UPLOAD_MEDIA_TYPES,
  file: 'the file: PDF, PNG, JPEG or HEIC, at most 20 MiB (its kind is read from its bytes)',
  fields: {
    fileName: z.string().max(255).optional().describe("default: the file part's file name"),
    title: z.string().max(255).optional(),
    folder: z.string().max(500).optional().describe('slash-separated folder path, e.g. receipts/2025'),
  },
});
export const UPLOAD_HEADERS = z.object({
  'X-Filename': FileNameHeader,
  'X-Title': z.string().max(1024).optional().describe('bare-file uploads: the title, percent-encoded like X-Filename'),
});

/** Decimal in the invoice currency (major units, as the XML states it). */
const Decimal = z.string().describe('decimal in the currency, e.g. "1413.13"');

/**
 * A received e-invoice as its XML states it (docs/decisions/0160-e-invoices.md). The fields after `paymentReference`
 * came later: an extraction stored before them lacks them.
 */
export const ReceivedEInvoice = z
  .object({
    syntax: z.enum(['UBL', 'CII']),
    typeCode: z.enum(['380', '381']).describe('380 invoice, 381 credit note'),
    number: z.string(),
    issueDate: z.string(),
    dueDate: z.string().nullable(),
    supplier: z.string(),
    supplierVatId: z.string().nullable(),
    buyer: z.string(),
    totalWithoutVat: Decimal,
    vat: Decimal,
    amountDue: Decimal,
    vatBreakdown: z.array(
      z.object({
        category: z.string().describe('EN 16931 VAT category: S, Z, E, AE, K, G, O, L, M'),
        rate: z.number(),
        taxable: Decimal,
        vat: Decimal,
        exemptionReason: z.string().nullable().optional().describe('BT-120, or the VATEX code BT-121'),
      }),
    ),
    iban: z.string().nullable().describe('the account to pay to'),
    paymentReference: z.string().nullable(),
    supplierLegalId: z.string().nullable().optional().describe('BT-30: a SIRET, a KBO/BCE enterprise number, a register entry'),
    supplierEndpoint: z.string().nullable().optional().describe('BT-34 as scheme:identifier, e.g. 0208:0403019261'),
    supplierAddress: z.array(z.string()).optional().describe('BG-5, as the lines of an envelope'),
    buyerReference: z.string().nullable().optional().describe('BT-10: a Leitweg-ID, a service code, an order'),
    precedingInvoice: z.string().nullable().optional().describe('BT-25: the invoice a credit note corrects'),
    lineTotal: Decimal.optional().describe('BT-106'),
    allowances: Decimal.optional().describe('BT-107'),
    charges: Decimal.optional().describe('BT-108'),
    totalWithVat: Decimal.optional().describe('BT-112'),
    prepaid: Decimal.optional().describe('BT-113'),
    vatAccounting: z
      .object({ currency: z.string(), vat: Decimal.nullable() })
      .nullable()
      .optional()
      .describe("BT-6 and BT-111: the VAT in the seller's accounting currency when the invoice is in another"),
    lines: z
      .array(
        z.object({
          name: z.string(),
          quantity: z.number(),
          unitCode: z.string().describe('UN/ECE recommendation 20'),
          price: Decimal,
          net: Decimal,
          category: z.string(),
          rate: z.number(),
        }),
      )
      .optional(),
    paymentTerms: z.string().nullable().optional(),
  })
  .meta({ id: 'ReceivedEInvoice' });
export type ReceivedEInvoice = z.infer<typeof ReceivedEInvoice>;

export const ExtractedFields = z
  .object({
    merchant: z.string().nullable(),
    date: z.string().nullable(),
    amount: z.number().nullable().describe('total in currency'),
    currency: z.string().nullable(),
    vatAmount: z.number().nullable(),
    vatRate: z.number().nullable(),
    website: z.string().nullable(),
    method: z.enum(['pdf-text', 'pdf-ocr', 'image-ocr', 'e-invoice']).describe('e-invoice: read from its XML, not by OCR'),
    eInvoice: ReceivedEInvoice.nullable()
      .optional()
      .describe('extension: a received e-invoice (UBL, CII or a hybrid PDF) as its XML states it'),
  })
  .meta({ id: 'ExtractedFields' });
export type ExtractedFields = z.infer<typeof ExtractedFields>;

export const Document = z
  .object({
    id: z.string(),
    title: z.string(),
    fileName: z.string(),
    pathTokens: z.array(z.string()).describe('folder segments then the file name'),
    metadata: z.object({ size: z.number().int(), mimetype: z.string(), sha256: z.string() }),
    processingStatus: z.enum(PROCESSING_STATUSES),
    summary: z.string().nullable(),
    date: z.string().nullable().describe('the date found in the document'),
    extracted: ExtractedFields.nullable().describe('fields found by local extraction; null until completed'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Document' });
export type Document = z.infer<typeof Document>;

export const DocumentDetail = Document.extend({
  content: z.string().nullable().describe('the extracted text (at most 100 000 characters)'),
}).meta({ id: 'DocumentDetail' });
export type DocumentDetail = z.infer<typeof DocumentDetail>;

export const DOCUMENT_SORT_COLUMNS = ['created_at', 'title', 'date', 'size'] as const;
export type DocumentSort = SortOrder<(typeof DOCUMENT_SORT_COLUMNS)[number]>;

export const DocumentListQuery = z.object({
  q: z.string().max(200).optional().describe('full-text search over title, file name, summary and content'),
  processingStatus: multiValue(z.enum(PROCESSING_STATUSES)),
  folder: z.string().max(500).optional().describe('documents in this folder (and below)'),
  sort: sortParam(DOCUMENT_SORT_COLUMNS, 'created_at desc'),
  cursor: CursorQuery,
  pageSize: PageSize,
});
export type DocumentListQuery = z.infer<typeof DocumentListQuery>;

export const DocumentPatch = z.strictObject({
  title: z.string().trim().min(1).max(255).optional(),
  date: z.iso.date().nullable().optional(),
  summary: z.string().trim().max(2000).nullable().optional(),
});
export type DocumentPatch = z.infer<typeof DocumentPatch>;

export const PresignBody = z.preprocess(
  (v) => v ?? {},
  z.strictObject({
    expiresIn: z.number().int().min(10).max(3600).default(300).describe('seconds, 10 to 3600; default 300'),
  }),
);

export const PresignedUrl = z
  .object({
    url: z.string().describe('a link to GET; it needs no credential and stops working at expiresAt'),
    expiresAt: z.string(),
  })
  .meta({ id: 'PresignedUrl' });

const DocumentIdParams = idParams();

export const documentRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/documents',
    tag: 'documents',
    summary: 'List and search documents (keyset cursor)',
    scopes: ['documents.read'],
    query: DocumentListQuery,
    responses: { 200: pageOf(Document) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/documents/:id',
    tag: 'documents',
    summary: 'Retrieve a document with its extracted text',
    scopes: ['documents.read'],
    params: DocumentIdParams,
    responses: { 200: DocumentDetail },
  }),
  upload: defineRoute({
    method: 'POST',
    path: '/documents',
    tag: 'documents',
    summary: 'Upload a document: multipart with a file part, the bare file, or JSON with base64 content (extension)',
    description:
      'PDF, PNG or JPEG, at most 20 MiB, recognized by content. Identical files are stored once. Text and receipt fields are extracted in the background (processingStatus).',
    scopes: ['documents.write'],
    body: DocumentUploadBody,
    consumes: UPLOAD_CONSUMES,
    bodyForms: UPLOAD_FORMS,
    documentedHeaders: UPLOAD_HEADERS,
    responses: { 201: Document },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/documents/:id',
    tag: 'documents',
    summary: 'Change the title, date or summary (extension)',
    scopes: ['documents.write'],
    params: DocumentIdParams,
    body: DocumentPatch,
    responses: { 200: Document },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/documents/:id',
    tag: 'documents',
    summary: 'Delete a document; its file goes with the last record holding it',
    scopes: ['documents.write'],
    params: DocumentIdParams,
    responses: { 200: Document },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/documents/:id/download',
    tag: 'documents',
    summary: 'The file itself (extension)',
    scopes: ['documents.read'],
    params: DocumentIdParams,
    responses: { 200: z.string().describe('the file bytes, with its media type') },
  }),
  presign: defineRoute({
    method: 'POST',
    path: '/documents/:id/presigned-url',
    tag: 'documents',
    summary: 'A short-lived download link to the file',
    scopes: ['documents.read'],
    params: DocumentIdParams,
    body: PresignBody,
    responses: { 200: PresignedUrl },
  }),
};

export const fileLinkRoute = defineRoute({
  method: 'GET',
  path: '/files/:token',
  tag: 'documents',
  summary: 'Download through a link from a presigned-url route: the token is the credential, until it expires',
  scopes: [],
  public: true,
  params: z.object({ token: z.string().min(1).max(200) }),
  responses: { 200: z.string().describe('the file bytes, with its media type') },
});
