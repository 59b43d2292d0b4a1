import type { AcceptedType } from '../documents/detect';
import type { DocumentRead } from '../documents/read-document';
import type { ReceiptFields } from '../documents/receipt-fields';
import type { ParseOptions, ParseResult } from '../import/parse-file';
import type { MailRead } from '../inbox-ingest/mail-read';

/**
 * The parsers that run in the sandbox (docs/decisions/0170-parser-sandbox.md), one entry each: what it takes, what it
 * answers, and its limits. Everything that reads bytes a stranger chose — a bank file, a PDF, an image, a received
 * e-invoice's XML, a mail — is a job here, run in a worker thread of the pool (pool.ts), never on the event loop.
 * The modules are required by the worker on a job's first run (a server that never reads a PDF never loads PDF.js;
 * `require`, so that the worker's bundle and the sources through tsx load them alike), and
 * the table is all a new parser adds: an entry here and its caller's `parsers().run(name, input)`.
 *
 * Limits, per job:
 * - `timeMs`: wall time from the job's start in a worker; past it the worker is stopped and the job fails with
 *   reason `time`. Set at about ten times what the largest legitimate input of the product's own limits takes on
 *   this project's 2-core machines (a 50 MiB CSV: ~15 s; a 20-page PDF: ~5 s; a 3-page scan rendered: ~10 s).
 * - `memoryMb`: the worker's JS heap plus the memory outside it (buffers, typed arrays: PDF streams, pixels),
 *   sampled every WATCH_MS while the job runs; past it the worker is stopped, reason `memory`. The worker's V8 heap is
 *   also capped (resourceLimits) so a burst between samples ends in V8's own out-of-memory stop, reported the same.
 */
export interface JobLimits {
  timeMs: number;
  memoryMb: number;
}

interface Job<I, O> {
  limits: JobLimits;
  run(input: I): Promise<O> | O;
}

const job = <I, O>(limits: JobLimits, run: (input: I) => Promise<O> | O): Job<I, O> => ({ limits, run });

export const JOBS = {
  /** A bank file (CSV, OFX/QFX, camt, MT940, QIF) to its statements: import/parse-file.ts. */
  bankFile: job<{ bytes: Uint8Array; options: ParseOptions }, ParseResult>({ timeMs: 90_000, memoryMb: 1_536 }, (i) =>
    (require('../import/parse-file') as typeof import('../import/parse-file')).parseBankFile(i.bytes, i.options),
  ),
  /**
   * A stored document read as far as it can be without OCR: an e-invoice's fields, a PDF's text layer, or the images
   * OCR is to read (a scan's pages, a photo at a capped size): documents/read-document.ts.
   */
  document: job<{ bytes: Uint8Array; mimetype: AcceptedType }, DocumentRead>({ timeMs: 120_000, memoryMb: 1_024 }, (i) =>
    (require('../documents/read-document') as typeof import('../documents/read-document')).readDocument(i.bytes, i.mimetype),
  ),
  /** The fields of a receipt's text (OCR output): documents/receipt-fields.ts. */
  receipt: job<{ text: string }, ReceiptFields>({ timeMs: 20_000, memoryMb: 256 }, (i) =>
    (require('../documents/receipt-fields') as typeof import('../documents/receipt-fields')).parseReceipt(i.text),
  ),
  /** A raw mail (RFC 5322) to its identity and its attachments judged as uploads: inbox-ingest/mail-read.ts. */
  mail: job<{ raw: Uint8Array }, MailRead>({ timeMs: 60_000, memoryMb: 768 }, (i) =>
    (require('../inbox-ingest/mail-read') as typeof import('../inbox-ingest/mail-read')).readMailIn(i.raw),
  ),
} as const;

export type JobName = keyof typeof JOBS;
export type JobInput<N extends JobName> = Parameters<(typeof JOBS)[N]['run']>[0];
export type JobOutput<N extends JobName> = Awaited<ReturnType<(typeof JOBS)[N]['run']>>;

/** The largest heap any job may use: the worker's V8 heap cap, a little above, so the watchdog speaks first. */
export const WORKER_HEAP_MB = Math.max(...Object.values(JOBS).map((j) => j.limits.memoryMb)) + 256;
