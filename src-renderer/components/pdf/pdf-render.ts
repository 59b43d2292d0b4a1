/**
 * Draws a PDF's pages onto canvases with pdf.js (loaded only when a preview is shown: it is large). Under the UI's
 * Content-Security-Policy: no WebAssembly, the worker from the app's own files.
 */
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Renders every page into `host` (replacing what it held) at its width; returns the number of pages. */
export async function renderPdf(
  data: ArrayBuffer,
  host: HTMLElement,
  pageLabel: (page: number, pages: number) => string,
  isCanceled: () => boolean,
): Promise<number> {
  const task = getDocument({ data: new Uint8Array(data), useWasm: false });
  const doc = await task.promise;
  try {
    const width = host.clientWidth || 600;
    const ratio = globalThis.devicePixelRatio || 1;
    const canvases: HTMLCanvasElement[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      if (isCanceled()) return 0;
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: (width / page.getViewport({ scale: 1 }).width) * ratio });
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.className = 'pdf-page';
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', pageLabel(n, doc.numPages));
      await page.render({ canvas, viewport }).promise;
      canvases.push(canvas);
    }
    if (isCanceled()) return 0;
    host.replaceChildren(...canvases);
    return doc.numPages;
  } finally {
    await task.destroy();
  }
}
