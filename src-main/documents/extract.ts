import { embeddedInvoiceXml } from '../einvoice/hybrid';
import { eInvoiceExtraction, type ReceivedInvoiceFields } from '../einvoice/received';
import { type AcceptedType, isHeif } from './detect';
import { heicToPng } from './heic';
import type { OcrEngine, OcrLanguage } from './ocr';
import { pdfText, renderPdfPages } from './pdf';
import { parseReceipt, type ReceiptFields } from './receipt-fields';

/**
 * Text and fields of one stored file, locally: a PDF's text layer when it has one; OCR of its rendered pages when
 * it has none (a scan); OCR of an image. The method is recorded with the result.
 */
export type ExtractionMethod = 'pdf-text' | 'pdf-ocr' | 'image-ocr' | 'e-invoice';

export interface Extraction {
  method: ExtractionMethod;
  text: string;
  fields: ReceiptFields & { eInvoice?: ReceivedInvoiceFields };
  pages: number | null;
}

/** A text layer shorter than this (in letters and digits) is treated as absent: a scan with a stray caption. */
const MIN_TEXT_LAYER = 20;

export interface ExtractOptions {
  /** The languages OCR reads in, the likeliest first (ocrLanguages); English by default. */
  languages?: readonly OcrLanguage[];
}

export async function extractFile(
  bytes: Buffer,
  mimetype: AcceptedType,
  ocr: OcrEngine,
  options: ExtractOptions = {},
): Promise<Extraction> {
  const langs = options.languages ?? ['eng'];
  // An e-invoice is read from its XML, never by OCR: the XML file itself, or the XML a hybrid PDF carries.
  if (mimetype === 'application/xml') return eInvoiceExtraction(new TextDecoder('utf-8').decode(bytes));
  if (mimetype === 'application/pdf') {
    const embedded = await embeddedInvoiceXml(bytes).catch(() => null);
    if (embedded) {
      try {
        return eInvoiceExtraction(embedded.xml);
      } catch {
        // A hybrid whose XML is not a readable e-invoice: read like any PDF.
      }
    }
    const { text, pages } = await pdfText(bytes);
    if ((text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= MIN_TEXT_LAYER) {
      return { method: 'pdf-text', text, fields: parseReceipt(text), pages };
    }
    const images = await renderPdfPages(bytes);
    const texts: string[] = [];
    for (const image of images) texts.push(await ocr.recognize(image, langs));
    const ocrText = texts.join('\n\n');
    return { method: 'pdf-ocr', text: ocrText, fields: parseReceipt(ocrText), pages };
  }
  const image = isHeif(mimetype) ? await heicToPng(bytes) : bytes;
  const text = await ocr.recognize(image, langs);
  return { method: 'image-ocr', text, fields: parseReceipt(text), pages: null };
}
