import { z } from 'zod';
import { MAPPED_FIELDS } from '../domain/import/types';
import { PageSize } from './common';
import { CsvMapping } from './import-mapping';
import { BooleanQuery, CursorQuery, idParams, pageOf } from './list';
import type { BodyMediaType } from './route';
import { defineRoute } from './route';
import { FileNameHeader, uploadForms } from './upload-forms';

/**
 * Extension: importing bank files (docs/decisions/0060–0066). Two steps: upload the file (it is parsed and
 * previewed, nothing is written), adjust the mapping and preview again if needed, then commit — one SQLite
 * transaction that records an import batch. Batches can be listed, read row by row and undone; bank rows held for
 * review are resolved in the review queue; transfers between the team's accounts are paired or suggested.
 * Scopes: transactions.read / transactions.write.
 */

const EXTENSION = 'Extension (not in the hosted v1 API). ';

export const IMPORT_MEDIA_TYPES = [
  'application/json',
  'multipart/form-data',
  'text/csv',
  'text/plain',
  'application/octet-stream',
  'application/xml',
  'text/xml',
  'application/x-ofx',
  'application/vnd.intu.qfx',
] as const;
/** The route contract's media-type list is typed for JSON and forms; an upload takes files too (as documents do). */
export const IMPORT_CONSUMES = IMPORT_MEDIA_TYPES as unknown as readonly BodyMediaType[];
const IMPORT_FORMS = uploadForms({
  mediaTypes: IMPORT_MEDIA_TYPES,
  file: 'the bank file (CSV, OFX/QFX, camt.052/053/054, MT940 or QIF), at most 50 MiB',
  fields: { fileName: z.string().max(255).optional().describe("default: the file part's file name") },
});

export const ImportFileBody = z.strictObject({
  fileName: z.string().trim().max(255).optional(),
  content: z
    .string()
    .min(1, 'must not be empty')
    .max(70_000_000, 'the file is larger than 50 MiB')
    .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'must be base64'),
});
export type ImportFileBody = z.infer<typeof ImportFileBody>;

/** Each statement's account, chosen by the person (docs/decisions/0069). */
const StatementAccounts = z
  .record(z.string().min(1).max(200), z.string().min(1).max(200))
  .describe(
    'files of several statements: the bank account of a statement, keyed by the account the statement names (IBAN, account number, QIF account name) or by its 1-based position when it names none',
  );

export const ImportUploadQuery = z.object({
  bankAccountId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'the account the file is a statement of; leave it out for a file of several accounts’ statements, each going to the account it names',
    ),
  mappingName: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe("CSV: use this saved mapping of the account (default: the account's last used)"),
  encoding: z
    .enum(['UTF-8', 'UTF-16LE', 'UTF-16BE', 'windows-1252', 'ISO-8859-1'])
    .optional()
    .describe('override the detected encoding'),
  rows: z.coerce
    .number()
    .int()
    .min(0)
    .max(5000)
    .default(500)
    .describe('how many planned rows to return (problem rows always come)'),
  splitBatches: BooleanQuery.optional().describe(
    'camt: split a batch entry (one booking, several transaction details) into one row per part',
  ),
});

export const Problem = z
  .object({
    line: z.number().int().nullable(),
    row: z.number().int().nullable(),
    field: z.string().nullable(),
    message: z.string(),
  })
  .meta({ id: 'ImportProblem' });

export const ScoredCandidate = z.object({
  transactionId: z.string(),
  score: z.number().describe('0–1: 0.5 × date closeness + 0.5 × name similarity'),
  days: z.number().int(),
  nameSimilarity: z.number(),
});

export const BalanceCheck = z
  .object({
    status: z.enum(['ok', 'mismatch', 'unchecked']),
    openingSource: z.enum(['file', 'ledger']).nullable(),
    opening: z.number().nullable(),
    closing: z.number().nullable(),
    computedClosing: z.number().nullable(),
    difference: z.number().nullable().describe('at the first stated balance the rows miss: stated − computed'),
    firstDivergingRow: z.object({ index: z.number().int(), line: z.number().int(), date: z.string() }).nullable(),
    segment: z
      .object({ fromIndex: z.number().int(), toIndex: z.number().int(), fromLine: z.number().int(), toLine: z.number().int() })
      .nullable(),
    suspects: z.array(z.object({ index: z.number().int(), line: z.number().int(), amount: z.number() })),
    message: z.string(),
  })
  .meta({ id: 'ImportBalanceCheck' });

export const PlannedRow = z
  .object({
    statement: z.number().int().describe('0-based position of the statement the row belongs to (0 for most files)'),
    index: z.number().int().describe("0-based position among the statement's rows"),
    line: z.number().int(),
    outcome: z.enum(['new', 'duplicate', 'link', 'review', 'rejected']),
    date: z.string().nullable(),
    amount: z.number().nullable(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    counterparty: z.string().nullable(),
    externalId: z.string().nullable(),
    status: z.enum(['posted', 'pending']).nullable(),
    transactionId: z
      .string()
      .nullable()
      .describe('duplicate: the existing transaction (or review item); link: the hand-entered one'),
    match: z.enum(['external_id', 'fingerprint', 'review_item']).nullable(),
    score: z.number().nullable(),
    candidates: z.array(ScoredCandidate),
    reason: z.string().nullable(),
  })
  .meta({ id: 'ImportPlannedRow' });

export const TransferHint = z.object({
  statement: z.number().int(),
  row: z.number().int(),
  counterpartId: z.string(),
  counterpartAccountId: z.string(),
  days: z.number().int(),
  unique: z.boolean().describe('applied on commit; otherwise suggested'),
});

export const MappedField = z.enum(MAPPED_FIELDS);

export const PreviewColumn = z
  .object({
    index: z.number().int(),
    header: z.string().nullable().describe('the header text (null: the file has no header row)'),
    samples: z.array(z.string()).describe('up to three distinct values of the column'),
    fields: z.array(MappedField).describe('what the mapping reads from the column (empty: not used)'),
  })
  .meta({ id: 'ImportPreviewColumn' });

const PlanCounts = z.object({
  rows: z.number().int(),
  new: z.number().int(),
  duplicate: z.number().int(),
  link: z.number().int(),
  review: z.number().int(),
  rejected: z.number().int(),
});

export const PreviewStatement = z
  .object({
    index: z.number().int(),
    accountRef: z.string().nullable().describe('the account the statement names (IBAN, account number, QIF account name)'),
    currency: z
      .string()
      .nullable()
      .describe("the statement's currency: the file's, else the one it was read in (the upload's account's or the team's)"),
    bankAccountId: z.string().nullable().describe('where it goes; null: no account found, choose one'),
    matchedBy: z
      .enum(['request', 'choice', 'iban', 'earlier import', 'account name'])
      .nullable()
      .describe(
        "how the account was found: the upload's bankAccountId, the person's choice, the account whose IBAN the statement names, the account an earlier import of the same statement went to, the one account whose name carries the reference",
      ),
    needs: z.string().nullable().describe('what to supply before the commit (an account for this statement)'),
    counts: PlanCounts.nullable(),
    balance: BalanceCheck.nullable(),
  })
  .meta({ id: 'ImportPreviewStatement' });

export const ImportPreview = z
  .object({
    uploadId: z.string(),
    bankAccountId: z.string().nullable().describe('the account of a single-statement file (null for several statements)'),
    fileName: z.string().nullable(),
    sha256: z.string(),
    size: z.number().int(),
    format: z.enum(['csv', 'ofx', 'camt', 'mt940', 'qif']),
    encoding: z.string(),
    mapping: CsvMapping.nullable().describe('CSV: the mapping used (inferred, saved, or the one sent)'),
    mappingName: z.string().nullable(),
    columns: z
      .array(PreviewColumn)
      .describe('CSV: each column by header name with sample values and the fields read from it ("column → field")'),
    notes: z.array(z.string()).describe('what to check in the mapping: an ambiguous date format, a column guessed by content'),
    counts: PlanCounts,
    balance: BalanceCheck,
    alreadyImported: z.object({ batchId: z.string(), accountId: z.string(), createdAt: z.string() }).nullable(),
    statements: z
      .array(PreviewStatement)
      .describe("the file's statements, one per account it holds (one for most files), each with its account"),
    transfers: z.array(TransferHint),
    warnings: z.array(z.string()),
    rows: z.array(PlannedRow).describe('the first `rows` planned rows, then every row to link, review or rejected'),
  })
  .meta({ id: 'ImportPreview' });
export type ImportPreview = z.infer<typeof ImportPreview>;

const SplitBatches = z
  .boolean()
  .optional()
  .describe('camt: split a batch entry (one booking, several transaction details) into one row per part');

export const PreviewBody = z.strictObject({
  mapping: CsvMapping.optional().describe('CSV: the adjusted mapping to use'),
  mappingName: z.string().min(1).max(100).optional().describe('CSV: a saved mapping of the account to use'),
  encoding: z.enum(['UTF-8', 'UTF-16LE', 'UTF-16BE', 'windows-1252', 'ISO-8859-1']).optional(),
  rows: z.number().int().min(0).max(5000).optional(),
  splitBatches: SplitBatches,
  accounts: StatementAccounts.optional(),
});

export const CommitBody = z.strictObject({
  mapping: CsvMapping.optional(),
  mappingName: z.string().min(1).max(100).optional(),
  encoding: z.enum(['UTF-8', 'UTF-16LE', 'UTF-16BE', 'windows-1252', 'ISO-8859-1']).optional(),
  splitBatches: SplitBatches,
  accounts: StatementAccounts.optional(),
  saveMappingAs: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('CSV: save the mapping used under this name for the account'),
  acceptBalanceMismatch: z
    .boolean()
    .optional()
    .describe("commit although the file's balances do not add up (a warning on the batch)"),
  allowReimport: z.boolean().optional().describe('commit although the same file was imported before'),
});

export const ImportBatch = z
  .object({
    id: z.string(),
    bankAccountId: z.string(),
    fileName: z.string().nullable(),
    fileSha256: z.string(),
    fileSize: z.number().int(),
    format: z.string(),
    encoding: z.string(),
    mapping: CsvMapping.nullable(),
    mappingName: z.string().nullable(),
    accountRef: z.string().nullable().describe('the account the statement named (IBAN, account number, QIF account name)'),
    status: z.enum(['committed', 'undone']),
    counts: z.object({
      rows: z.number().int(),
      created: z.number().int(),
      duplicate: z.number().int(),
      linked: z.number().int(),
      review: z.number().int(),
      rejected: z.number().int(),
      transfers: z.number().int(),
    }),
    balance: BalanceCheck.nullable(),
    warnings: z.array(z.string()),
    undoneAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ImportBatch' });
export type ImportBatch = z.infer<typeof ImportBatch>;

export const CommitResult = z
  .object({
    batch: ImportBatch.describe('the batch of the first statement'),
    batches: z.array(ImportBatch).describe("one batch per statement (account) of the file, in the file's order"),
    links: z.array(
      z.object({ index: z.number().int(), line: z.number().int(), transactionId: z.string(), score: z.number().nullable() }),
    ),
    review: z.array(
      z.object({ index: z.number().int(), line: z.number().int(), itemId: z.string(), candidates: z.array(z.string()) }),
    ),
    rejected: z.array(z.object({ index: z.number().int(), line: z.number().int(), reason: z.string() })),
    transfers: z.object({ paired: z.number().int(), suggested: z.number().int() }),
  })
  .meta({ id: 'ImportCommitResult' });

export const BatchRowOutcome = z
  .object({
    position: z.number().int(),
    line: z.number().int().nullable(),
    outcome: z.enum(['created', 'duplicate', 'linked', 'review', 'rejected']),
    transactionId: z.string().nullable(),
    match: z.string().nullable(),
    reason: z.string().nullable(),
    date: z.string().nullable(),
    amount: z.number().nullable(),
    description: z.string().nullable(),
    externalId: z.string().nullable(),
  })
  .meta({ id: 'ImportBatchRow' });

export const ReviewItem = z
  .object({
    id: z.string(),
    bankAccountId: z.string(),
    batchId: z.string(),
    position: z.number().int(),
    line: z.number().int(),
    status: z.enum(['open', 'linked', 'created']),
    date: z.string(),
    amount: z.number(),
    currency: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    counterparty: z.string().nullable(),
    candidates: z.array(ScoredCandidate),
    resolvedTransactionId: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ImportReviewItem' });

export const SavedMapping = z
  .object({
    id: z.string(),
    bankAccountId: z.string(),
    name: z.string(),
    format: z.literal('csv'),
    mapping: CsvMapping,
    lastUsedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ImportMapping' });

export const TransferPair = z
  .object({
    id: z.string(),
    status: z.enum(['paired', 'suggested', 'dismissed']),
    outTransactionId: z.string(),
    inTransactionId: z.string(),
    outAccountId: z.string(),
    inAccountId: z.string(),
    amount: z.number(),
    currency: z.string(),
    outDate: z.string(),
    inDate: z.string(),
    days: z.number().int(),
    batchId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TransferPair' });

const ids = idParams();
const tag = 'import';

export const importRoutes = {
  upload: defineRoute({
    method: 'POST',
    path: '/imports/uploads',
    tag,
    summary:
      'Upload a bank file (CSV, OFX/QFX, camt.052/053/054, MT940, QIF) and preview its import; nothing is written to the ledger',
    description: `${EXTENSION}The body is the file itself (text/csv, application/octet-stream… with the file name in X-Filename), multipart/form-data with a file part named file, or JSON {fileName, content: base64}. A malformed file is 422 with one entry per line in \`fields\`.`,
    scopes: ['transactions.write'],
    query: ImportUploadQuery,
    body: ImportFileBody,
    consumes: IMPORT_CONSUMES,
    bodyForms: IMPORT_FORMS,
    documentedHeaders: z.object({ 'X-Filename': FileNameHeader }),
    responses: { 201: ImportPreview },
  }),
  preview: defineRoute({
    method: 'POST',
    path: '/imports/uploads/:id/preview',
    tag,
    summary: 'Preview an uploaded file again, with an adjusted or saved mapping',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    body: PreviewBody,
    responses: { 200: ImportPreview },
  }),
  commit: defineRoute({
    method: 'POST',
    path: '/imports/uploads/:id/commit',
    tag,
    summary: 'Commit an uploaded file as an import batch (one transaction: all of it or nothing)',
    description: `${EXTENSION}409 when the file was imported before (allowReimport) or its balances do not add up (acceptBalanceMismatch), naming the first diverging row; 422 when a statement has no account yet (accounts), naming it; nothing is written then. A file of several statements is committed as one batch per account, all or nothing.`,
    scopes: ['transactions.write'],
    params: ids,
    body: CommitBody,
    responses: { 201: CommitResult },
  }),
  listBatches: defineRoute({
    method: 'GET',
    path: '/imports/batches',
    tag,
    summary: "List import batches, newest first (an account's with bankAccountId)",
    description: EXTENSION,
    scopes: ['transactions.read'],
    query: z.object({
      bankAccountId: z.string().min(1).max(200).optional(),
      cursor: CursorQuery,
      pageSize: PageSize,
    }),
    responses: { 200: pageOf(ImportBatch) },
  }),
  getBatch: defineRoute({
    method: 'GET',
    path: '/imports/batches/:id',
    tag,
    summary: 'Read an import batch (file hash, format, mapping, counts, balance check, warnings)',
    description: EXTENSION,
    scopes: ['transactions.read'],
    params: ids,
    responses: { 200: ImportBatch },
  }),
  batchRows: defineRoute({
    method: 'GET',
    path: '/imports/batches/:id/rows',
    tag,
    summary:
      "A batch's per-row outcomes in file order (created, duplicate of, linked to, held for review, rejected with the reason)",
    description: EXTENSION,
    scopes: ['transactions.read'],
    params: ids,
    query: z.object({
      outcome: z.enum(['created', 'duplicate', 'linked', 'review', 'rejected']).optional(),
      after: z.coerce.number().int().min(-1).optional().describe('the last position of the previous page'),
      limit: z.coerce.number().int().min(1).max(1000).default(200),
    }),
    responses: { 200: z.object({ data: z.array(BatchRowOutcome), next: z.number().int().nullable() }) },
  }),
  undoBatch: defineRoute({
    method: 'POST',
    path: '/imports/batches/:id/undo',
    tag,
    summary: 'Undo an import batch in one transaction (409 naming the rows when any was reconciled since)',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    responses: { 200: ImportBatch },
  }),
  listReview: defineRoute({
    method: 'GET',
    path: '/imports/review',
    tag,
    summary: 'The review queue: bank rows held because their hand-entered match was ambiguous or weak',
    description: EXTENSION,
    scopes: ['transactions.read'],
    query: z.object({
      bankAccountId: z.string().min(1).max(200).optional(),
      status: z.enum(['open', 'linked', 'created']).default('open'),
      cursor: CursorQuery,
      pageSize: PageSize,
    }),
    responses: { 200: pageOf(ReviewItem) },
  }),
  getReview: defineRoute({
    method: 'GET',
    path: '/imports/review/:id',
    tag,
    summary: 'Read a review item',
    description: EXTENSION,
    scopes: ['transactions.read'],
    params: ids,
    responses: { 200: ReviewItem },
  }),
  linkReview: defineRoute({
    method: 'POST',
    path: '/imports/review/:id/link',
    tag,
    summary: 'Link the held bank row into a hand-entered transaction (the bank supplies id, date, status, description)',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    body: z.strictObject({ transactionId: z.string().min(1).max(200) }),
    responses: { 200: ReviewItem },
  }),
  createReview: defineRoute({
    method: 'POST',
    path: '/imports/review/:id/create',
    tag,
    summary: 'Create the held bank row as a transaction of its own',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    responses: { 200: ReviewItem },
  }),
  unlink: defineRoute({
    method: 'POST',
    path: '/imports/links/:id/unlink',
    tag,
    summary: 'Unlink a transaction an import linked: the hand-entered row is restored and the bank row becomes its own',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    responses: { 200: z.object({ handEnteredId: z.string(), bankRowId: z.string() }) },
  }),
  listMappings: defineRoute({
    method: 'GET',
    path: '/imports/mappings',
    tag,
    summary: 'Saved CSV mappings (per account)',
    description: EXTENSION,
    scopes: ['transactions.read'],
    query: z.object({ bankAccountId: z.string().min(1).max(200).optional() }),
    responses: { 200: z.object({ data: z.array(SavedMapping) }) },
  }),
  deleteMapping: defineRoute({
    method: 'DELETE',
    path: '/imports/mappings/:id',
    tag,
    summary: 'Delete a saved mapping',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    responses: { 204: z.null() },
  }),
  listTransfers: defineRoute({
    method: 'GET',
    path: '/transfers',
    tag,
    summary: "Transfers between the team's accounts: paired, suggested or dismissed",
    description: EXTENSION,
    scopes: ['transactions.read'],
    query: z.object({
      status: z.enum(['paired', 'suggested', 'dismissed']).optional(),
      bankAccountId: z.string().min(1).max(200).optional(),
      batchId: z.string().min(1).max(200).optional(),
    }),
    responses: { 200: z.object({ data: z.array(TransferPair) }) },
  }),
  acceptTransfer: defineRoute({
    method: 'POST',
    path: '/transfers/:id/accept',
    tag,
    summary: 'Apply a suggested transfer pair: both rows become internal',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    responses: { 200: TransferPair },
  }),
  unpairTransfer: defineRoute({
    method: 'POST',
    path: '/transfers/:id/unpair',
    tag,
    summary: 'Unpair (or dismiss a suggestion): both rows get back what they were',
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: ids,
    responses: { 200: TransferPair },
  }),
};
