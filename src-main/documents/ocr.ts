import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'tesseract.js';
import { unpackedPath } from '../paths';

/**
 * OCR with tesseract.js, entirely local (docs/decisions/0083-document-extraction.md):
 * - language data from the installed npm package @tesseract.js-data/eng (its integer LSTM model, 2.9 MB gzipped),
 *   read from node_modules through `langPath`; `cacheMethod: 'none'` so nothing is written beside it;
 * - the worker thread runs ocr-worker.cjs, which blocks fetch, http(s) and sockets before tesseract's own worker
 *   script loads, so a missing file is an error, never a download.
 * In the packaged desktop app both paths point outside the archive (electron-builder.yml unpacks the worker, the
 * language data and tesseract's own modules), since a worker thread does not read from inside app.asar.
 * One worker serves the process; calls queue on it. It is started on first use and ends after a minute idle
 * (it holds ~100 MB).
 */
export const OCR_LANG = 'eng';
export const OCR_LANG_PATH = unpackedPath(
  path.join(path.dirname(createRequire(__filename).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int'),
);
export const OCR_WORKER_PATH = unpackedPath(path.join(__dirname, 'ocr-worker.cjs'));

const IDLE_MS = 60_000;

export interface OcrOptions {
  /** Where the language data is (a local folder); tests point it elsewhere to prove nothing is fetched. */
  langPath?: string;
}

export class OcrEngine {
  private worker: Promise<Worker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly options: OcrOptions = {}) {}

  private start(): Promise<Worker> {
    // tesseract.js swallows a failure to load the language (its createWorker never settles) and reports it only to
    // errorHandler: turn that into a rejection. Later errors of a job also reject that job's own promise.
    this.worker ??= new Promise<Worker>((resolve, reject) => {
      // Required here, not at the top: tesseract.js is loaded by the first OCR job, not by every server start.
      const { createWorker, OEM } = require('tesseract.js') as typeof import('tesseract.js');
      createWorker(OCR_LANG, OEM.LSTM_ONLY, {
        langPath: this.options.langPath ?? OCR_LANG_PATH,
        gzip: true,
        cacheMethod: 'none',
        workerPath: OCR_WORKER_PATH,
        errorHandler: (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
      }).then(resolve, reject);
    }).catch((err: unknown) => {
      this.worker = undefined;
      throw err;
    });
    return this.worker;
  }

  /** The text of an image (PNG, JPEG, BMP, TIFF, WebP bytes). */
  recognize(image: Buffer): Promise<string> {
    const run = this.queue.then(async () => {
      if (this.idle) clearTimeout(this.idle);
      try {
        const worker = await this.start();
        const result = await worker.recognize(image);
        return result.data.text;
      } finally {
        this.idle = setTimeout(() => void this.stop(), IDLE_MS);
        this.idle.unref();
      }
    });
    this.queue = run.catch(() => {});
    return run;
  }

  async stop(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }
}
