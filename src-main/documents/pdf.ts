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
  });
  const doc = await task.promise;
  return Object.assign(doc, { close: () => task.destroy() });
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

/** Renders the first pages to PNG at about 216 dpi (scale 3), a resolution tesseract reads receipts well at. */
export async function renderPdfPages(bytes: Uint8Array, maxPages = 3): Promise<Buffer[]> {
  const doc = await open(bytes);
  try {
    const out: Buffer[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 3 });
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
