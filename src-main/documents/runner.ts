import { EInvoiceReadError } from '../einvoice/read';
import { blobStore, readBlob, sweepOrphans } from '../infra/blob-store';
import { ParserFailed, ParserStopped } from '../sandbox/pool';
import type { Db } from '../store/db';
import { applyExtractionToDocuments } from '../store/documents/documents';
import {
  claimExtraction,
  completeExtraction,
  failAbandonedExtractions,
  failExtraction,
  fileLanguageHints,
  isStoredFile,
  releaseIfUnreferenced,
  unreferencedFiles,
  withBlobCleanup,
} from '../store/files/stored-files';
import { applyExtractionToInbox } from '../store/inbox/extraction';
import { expireStaleInbox, itemsToMatch, matchInboxItem } from '../store/inbox/matching';
import { PROCESS_OWNER, withLease } from '../store/leases';
import type { AcceptedType } from './detect';
import { extractFile } from './extract';
import { OcrEngine, ocrLanguages } from './ocr';

/**
 * The background work of documents and the inbox, inside the server process (docs/decisions/0083, 0084):
 * 1. extraction: claims one stored file at a time with a lease on its row (two processes on one data dir never
 *    extract the same file), extracts locally, and copies the result onto every document and inbox item holding it;
 * 2. matching: items just analyzed, or waiting while the team's transactions changed, are matched (one process at a
 *    time: the `inbox-matching` lease);
 * 3. housekeeping: pending items older than 90 days become no_match; files nothing references any more, and files a
 *    crash left behind, are removed (the `files-gc` lease, every ten minutes).
 * A tick runs every few seconds and at once after an upload (`kick`).
 */
export interface DocumentRunnerOptions {
  pollMs?: number;
  leaseMs?: number;
  ocr?: OcrEngine;
  owner?: string;
}

const GC_EVERY_MS = 10 * 60_000;

export class DocumentRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private started = false;
  private lastGc = 0;
  readonly ocr: OcrEngine;
  private readonly owner: string;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly options: DocumentRunnerOptions = {},
  ) {
    this.ocr = options.ocr ?? new OcrEngine();
    this.owner = options.owner ?? PROCESS_OWNER;
  }

  start(): void {
    this.stopped = false;
    this.started = true;
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 5000);
    this.timer.unref();
    this.kick();
  }

  /** Runs a tick now (or right after the one in progress); nothing before start() or after stop(). */
  kick(): void {
    if (this.stopped || !this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.tick()
      .catch(() => {})
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no tick is running and none is due (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
    await this.ocr.stop();
  }

  async tick(): Promise<void> {
    for (let n = 0; n < 20 && !this.stopped; n++) {
      if (!(await this.extractOne())) break;
    }
    if (this.stopped) return;
    withLease(this.db, 'inbox-matching', 60_000, () => {
      for (const item of itemsToMatch(this.db)) matchInboxItem(this.db, item.teamId, item.id);
      expireStaleInbox(this.db);
    });
    if (Date.now() - this.lastGc > GC_EVERY_MS) {
      this.lastGc = Date.now();
      withLease(this.db, 'files-gc', 5 * 60_000, () => this.collectGarbage());
    }
  }

  /** Extracts one claimed file; false when nothing was waiting. */
  async extractOne(): Promise<boolean> {
    for (const sha of failAbandonedExtractions(this.db)) {
      applyExtractionToDocuments(this.db, sha);
      applyExtractionToInbox(this.db, sha);
    }
    const file = claimExtraction(this.db, this.owner, this.options.leaseMs ?? 5 * 60_000);
    if (!file) return false;
    applyExtractionToDocuments(this.db, file.sha256);
    applyExtractionToInbox(this.db, file.sha256);
    try {
      const languages = ocrLanguages(fileLanguageHints(this.db, file.sha256));
      const result = await extractFile(readBlob(this.dataDir, file.sha256), file.mimetype as AcceptedType, this.ocr, {
        languages,
      });
      if (!completeExtraction(this.db, file.sha256, this.owner, result)) return true;
    } catch (err) {
      // What the sandbox answered is the file's own doing (refused, or past a limit): the same again next time.
      const final = err instanceof ParserStopped || err instanceof ParserFailed || err instanceof EInvoiceReadError;
      const message = err instanceof Error ? err.message : String(err);
      const status = failExtraction(this.db, file.sha256, this.owner, message, new Date(), final);
      if (status !== 'failed') return true;
    }
    applyExtractionToDocuments(this.db, file.sha256);
    applyExtractionToInbox(this.db, file.sha256);
    return true;
  }

  collectGarbage(): number {
    const blobs = blobStore(this.dataDir);
    let removed = 0;
    for (const sha of unreferencedFiles(this.db)) {
      withBlobCleanup(blobs, (trashed) =>
        this.db
          .transaction(() => {
            if (releaseIfUnreferenced(this.db, sha, blobs, trashed)) removed++;
          })
          .immediate(),
      );
    }
    return removed + sweepOrphans(this.dataDir, (sha) => isStoredFile(this.db, sha));
  }
}
