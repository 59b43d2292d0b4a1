import { MAX_IMAGE_PIXELS } from './images';

/**
 * Reading PDFs with pdfjs-dist (Mozilla's PDF.js, the project's PDF reader): the text layer as lines in reading
 * order, and pages rendered to PNG (through @napi-rs/canvas, pdfjs's canvas in Node) for OCR when a PDF has no text
 * layer (a scan). Nothing here touches the network: fonts are not fetched (standard fonts are not needed for text
 * extraction, and rendering a scan draws images only).
 */
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
const load = () => {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
};

interface TextItem {
  str: string;
  transform: number[];
}

/** Pages at most: a 300-page document is not a receipt, and its first pages say what it is. */
export const MAX_PDF_PAGES = 20;

async function open(bytes: Uint8Array) {
  const { getDocument } = await load();
  const task = getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    // An image declaring more pixels than this is not decoded (a few bytes can declare gigapixels): images.ts.
    maxImageSize: MAX_IMAGE_PIXELS,
  });
  const doc = await task.promise;
  return Object.assign(doc, { close: () => task.destroy() });
}

/**
 * The files attached to a PDF (its EmbeddedFiles), by file name: a hybrid e-invoice carries its XML so. `wanted`
 * names the files whose content is read (the others are not inflated at all).
 */
export async function pdfAttachments(
  bytes: Uint8Array,
  wanted: (fileName: string) => boolean = () => true,
): Promise<Map<string, Uint8Array>> {
  const doc = await open(bytes);
  try {
    const found = await doc.getAttachments();
    const out = new Map<string, Uint8Array>();
    for (const [id, a] of found ?? []) {
      if (!wanted(a.filename || id)) continue;
      // pdfjs hands the content with the list, or (newer versions) on request by the attachment's id.
      const content = a.content ?? (await doc.getAttachmentContent(id));
      if (content) out.set(a.filename || id, content);
    }
    return out;
  } finally {
    await doc.close();
  }
}

/** The text layer, one line per visual line (items on the same baseline joined left to right). */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const doc = await open(bytes);
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PDF_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const lines: { y: number; items: { x: number; str: string }[] }[] = [];
      for (const item of content.items as TextItem[]) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const x = item.transform[4] ?? 0;
        const y = item.transform[5] ?? 0;
        let line = lines.find((l) => Math.abs(l.y - y) < 2.5);
        if (!line) {
          line = { y, items: [] };
          lines.push(line);
        }
        line.items.push({ x, str: item.str });
      }
      lines.sort((a, b) => b.y - a.y);
      pages.push(
        lines
          .map((l) =>
            l.items
              .sort((a, b) => a.x - b.x)
              .map((i) => i.str.trim())
              .join(' '),
          )
          .join('\n'),
      );
      page.cleanup();
    }
    return { text: pages.join('\n\n'), pages: doc.numPages };
  } finally {
    await doc.close();
  }
}

/** Rendering scales: 300 dpi at least (what tesseract reads best at), at most 7,000 pixels on a page's long side. */
const MIN_SCALE = 300 / 72;
const MAX_SIDE_PX = 7000;

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: readonly number[]): Matrix => [
  m[0] * n[0]! + m[2] * n[1]!,
  m[1] * n[0]! + m[3] * n[1]!,
  m[0] * n[2]! + m[2] * n[3]!,
  m[1] * n[2]! + m[3] * n[3]!,
  m[0] * n[4]! + m[2] * n[5]! + m[4],
  m[1] * n[4]! + m[3] * n[5]! + m[5],
];

/**
 * Pixels per point of the page's largest image (a scan is one image filling the page), from its operator list with
 * the transformation in force where it is drawn; 0 without images. Rendering at that scale keeps every pixel of the
 * scan, so OCR reads it as it would read the image itself.
 */
async function imagePixelsPerPoint(page: PdfPage, OPS: Record<string, number>): Promise<number> {
  const list = await page.getOperatorList();
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  let best = { area: 0, ratio: 0 };
  list.fnArray.forEach((fn, i) => {
    const args = list.argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, args as number[]);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args[0])) ctm = multiply(ctm, args[0] as number[]);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
      const img = (fn === OPS.paintImageXObject ? { width: args[1], height: args[2] } : args[0]) as {
        width?: number;
        height?: number;
      };
      const drawnWidth = Math.hypot(ctm[0], ctm[1]);
      const drawnHeight = Math.hypot(ctm[2], ctm[3]);
      if (!img.width || !img.height || drawnWidth === 0) return;
      const area = drawnWidth * drawnHeight;
      if (area > best.area) best = { area, ratio: img.width / drawnWidth };
    }
  });
  return best.ratio;
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof open>>['getPage']>>;

/**
 * Renders the first pages to PNG for OCR: at the resolution of the scanned image they hold (its pixels kept one to
 * one), and never below 300 dpi; a page without images at 300 dpi.
 */
export async function renderPdfPages(bytes: Uint8Array, maxPages = 3): Promise<Buffer[]> {
  const { OPS } = await load();
  const doc = await open(bytes);
  try {
    const out: Buffer[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const page = await doc.getPage(n);
      const unit = page.getViewport({ scale: 1 });
      const cap = MAX_SIDE_PX / Math.max(unit.width, unit.height);
      const scale = Math.min(Math.max(MIN_SCALE, await imagePixelsPerPoint(page, OPS)), cap);
      const viewport = page.getViewport({ scale });
      const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
      const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      await page.render({ canvasContext: context, canvas, viewport } as never).promise;
      out.push(canvas.toBuffer('image/png'));
      factory.destroy({ canvas, context });
      page.cleanup();
    }
    return out;
  } finally {
    await doc.close();
  }
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: { toBuffer(type: 'image/png'): Buffer }; context: unknown };
  destroy(pair: { canvas: unknown; context: unknown }): void;
}
