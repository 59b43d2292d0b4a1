import { eInvoiceExtraction, type ReceivedInvoiceFields } from '../einvoice/received';
import type { AcceptedType } from './detect';
import { embeddedInvoiceXml } from './embedded-invoice';
import { imageForOcr } from './images';
import { pdfText, renderPdfPages } from './pdf';
import { checkPdfInflation } from './pdf-inflation';
import { parseReceipt, type ReceiptFields } from './receipt-fields';

/**
 * A stored file read as far as it can be without OCR, in the parser sandbox (docs/decisions/0170, 0083): an
 * e-invoice from its XML (the file itself, or the XML a hybrid PDF carries); a PDF's text layer when it has one;
 * otherwise the images OCR is to read — a scan's pages rendered, a photo decoded or scaled (images.ts). A PDF is
 * first measured for how far its streams inflate (pdf-inflation.ts) and refused past the limits.
 */
export type ExtractionMethod = 'pdf-text' | 'pdf-ocr' | 'image-ocr' | 'e-invoice';

export interface Extraction {
  method: ExtractionMethod;
  text: string;
  fields: ReceiptFields & { eInvoice?: ReceivedInvoiceFields };
  pages: number | null;
}

export type DocumentRead =
  | { kind: 'read'; extraction: Extraction }
  | { kind: 'ocr'; method: 'pdf-ocr' | 'image-ocr'; images: Uint8Array[]; pages: number | null };

/** A text layer shorter than this (in letters and digits) is treated as absent: a scan with a stray caption. */
const MIN_TEXT_LAYER = 20;

export async function readDocument(bytes: Uint8Array, mimetype: AcceptedType): Promise<DocumentRead> {
  if (mimetype === 'application/xml') {
    return { kind: 'read', extraction: eInvoiceExtraction(new TextDecoder('utf-8').decode(bytes)) };
  }
  if (mimetype === 'application/pdf') {
    await checkPdfInflation(bytes);
    const embedded = await embeddedInvoiceXml(bytes).catch(() => null);
    if (embedded) {
      try {
        return { kind: 'read', extraction: eInvoiceExtraction(embedded.xml) };
      } catch {
        // A hybrid whose XML is not a readable e-invoice: read like any PDF.
      }
    }
    const { text, pages } = await pdfText(bytes);
    if ((text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= MIN_TEXT_LAYER) {
      return { kind: 'read', extraction: { method: 'pdf-text', text, fields: parseReceipt(text), pages } };
    }
    return { kind: 'ocr', method: 'pdf-ocr', images: await renderPdfPages(bytes), pages };
  }
  return { kind: 'ocr', method: 'image-ocr', images: [await imageForOcr(bytes, mimetype)], pages: null };
}
