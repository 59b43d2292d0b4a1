import { EInvoiceReadError } from '../einvoice/read';
import { ParserFailed, parsers } from '../sandbox/pool';
import type { AcceptedType } from './detect';
import type { OcrEngine, OcrLanguage } from './ocr';
import type { Extraction } from './read-document';

export type { Extraction, ExtractionMethod } from './read-document';

/**
 * Text and fields of one stored file, locally: a PDF's text layer when it has one; OCR of its rendered pages when
 * it has none (a scan); OCR of an image. The method is recorded with the result. Everything that reads the file's
 * bytes runs in the parser sandbox (read-document.ts, docs/decisions/0170); OCR runs in tesseract's own worker, on
 * images the sandbox made (a size OCR reads well); the receipt fields of OCR's text are found in the sandbox too.
 * A file that takes its reader past the sandbox's limits rejects with ParserStopped: the runner fails it for good.
 */
export interface ExtractOptions {
  /** The languages OCR reads in, the likeliest first (ocrLanguages); English by default. */
  languages?: readonly OcrLanguage[];
}

/** The e-invoice reader's error keeps its class across the sandbox: callers and tests tell it apart. */
function rethrow(err: unknown): never {
  if (err instanceof ParserFailed && err.errorName === 'EInvoiceReadError') throw new EInvoiceReadError(err.message);
  throw err;
}

export async function extractFile(
  bytes: Buffer,
  mimetype: AcceptedType,
  ocr: OcrEngine,
  options: ExtractOptions = {},
): Promise<Extraction> {
  const langs = options.languages ?? ['eng'];
  const read = await parsers().run('document', { bytes, mimetype }).catch(rethrow);
  if (read.kind === 'read') return read.extraction;
  const texts: string[] = [];
  for (const image of read.images) {
    texts.push(await ocr.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), langs));
  }
  const text = texts.join('\n\n');
  return { method: read.method, text, fields: await parsers().run('receipt', { text }), pages: read.pages };
}
