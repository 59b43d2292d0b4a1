import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'tesseract.js';
import { unpackedPath } from '../paths';

/**
 * OCR with tesseract.js, entirely local (docs/decisions/0083-document-extraction.md):
 * - language data from the installed npm packages @tesseract.js-data/eng, /deu and /fra (their integer LSTM models,
 *   2.9, 1.3 and 0.7 MB gzipped), read from node_modules and handed to the worker as bytes; `cacheMethod: 'none'` so
 *   nothing is written beside them. A job names its languages (the team's first, then English: ocrLanguages); the
 *   worker is re-initialised when they change;
 * - the worker thread runs ocr-worker.cjs, which blocks fetch, http(s) and sockets before tesseract's own worker
 *   script loads, so a missing file is an error, never a download.
 * In the packaged desktop app both paths point outside the archive (electron-builder.yml unpacks the worker, the
 * language data and tesseract's own modules), since a worker thread does not read from inside app.asar.
 * One worker serves the process; calls queue on it. It is started on first use and ends after a minute idle
 * (it holds ~100 MB).
 */
export const OCR_LANGUAGES = ['eng', 'deu', 'fra'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

/** The folder of a language's data in its npm package. */
export function ocrLangPath(lang: OcrLanguage): string {
  return unpackedPath(
    path.join(path.dirname(createRequire(__filename).resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int'),
  );
}
export const OCR_LANG_PATH = ocrLangPath('eng');
export const OCR_WORKER_PATH = unpackedPath(path.join(__dirname, 'ocr-worker.cjs'));

/** Languages written in the countries whose users read receipts in German or French (ISO 3166 codes). */
const COUNTRY_LANGUAGES: Record<string, OcrLanguage[]> = {
  DE: ['deu'],
  AT: ['deu'],
  LI: ['deu'],
  CH: ['deu', 'fra'],
  LU: ['fra', 'deu'],
  FR: ['fra'],
  BE: ['fra'],
  MC: ['fra'],
};

/**
 * The languages to read a team's receipts in: those of its people's locales and its country, then English (which
 * every receipt mixes in: "Total", "VISA"). An English or other team reads in English only.
 */
export function ocrLanguages(hints: { locales?: readonly string[]; countries?: readonly string[] }): OcrLanguage[] {
  const out: OcrLanguage[] = [];
  const add = (l: OcrLanguage | undefined) => {
    if (l && !out.includes(l)) out.push(l);
  };
  for (const locale of hints.locales ?? []) {
    const lang = locale.toLowerCase().split(/[-_]/)[0];
    add(lang === 'de' ? 'deu' : lang === 'fr' ? 'fra' : undefined);
  }
  for (const country of hints.countries ?? []) for (const l of COUNTRY_LANGUAGES[country.toUpperCase()] ?? []) add(l);
  add('eng');
  return out;
}

const IDLE_MS = 60_000;

/** Required on use, not at the top: tesseract.js is loaded by the first OCR job, not by every server start. */
const tesseract = () => require('tesseract.js') as typeof import('tesseract.js');

export interface OcrOptions {
  /** Where the language data is (a local folder); tests point it elsewhere to prove nothing is fetched. */
  langPath?: string;
}

export class OcrEngine {
  private worker: Promise<Worker> | undefined;
  /** The languages the worker was initialised with ("deu+eng"). */
  private loaded = '';
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly options: OcrOptions = {}) {}

  /** Each language's bytes, read once (the same object each time, so tesseract.js loads it into a worker once). */
  private readonly data = new Map<OcrLanguage, { code: OcrLanguage; data: Buffer }>();

  /** The languages as tesseract.js takes them: the packages' bytes, or codes read from `langPath` (tests). */
  private languageData(langs: readonly OcrLanguage[]) {
    if (this.options.langPath) return langs.join('+');
    return langs.map((code) => {
      let lang = this.data.get(code);
      if (!lang) {
        lang = { code, data: fs.readFileSync(path.join(ocrLangPath(code), `${code}.traineddata.gz`)) };
        this.data.set(code, lang);
      }
      return lang;
    });
  }

  private start(langs: readonly OcrLanguage[]): Promise<Worker> {
    // tesseract.js swallows a failure to load the language (its createWorker never settles) and reports it only to
    // errorHandler: turn that into a rejection. Later errors of a job also reject that job's own promise.
    this.worker ??= new Promise<Worker>((resolve, reject) => {
      const { createWorker, OEM } = tesseract();
      this.loaded = langs.join('+');
      createWorker(this.languageData(langs), OEM.LSTM_ONLY, {
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

  /** The text of an image (PNG, JPEG, BMP, TIFF, WebP bytes), read in these languages (the first one first). */
  recognize(image: Buffer, langs: readonly OcrLanguage[] = ['eng']): Promise<string> {
    const run = this.queue.then(async () => {
      if (this.idle) clearTimeout(this.idle);
      try {
        const worker = await this.start(langs);
        const wanted = langs.join('+');
        if (this.loaded !== wanted) {
          await worker.reinitialize(this.languageData(langs), tesseract().OEM.LSTM_ONLY);
          this.loaded = wanted;
        }
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
