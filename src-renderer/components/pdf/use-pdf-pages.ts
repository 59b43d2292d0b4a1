/**
 * A file shown in place: `usePdfPages` draws a PDF blob page by page into the element it hands back (pdf.js, loaded
 * only when a PDF is shown), and `useObjectUrl` gives the blob an address for a download link, released with it.
 */
import { type RefObject, useEffect, useRef, useState } from 'react';

export type PdfDrawState = 'drawing' | 'done' | Error;

export function usePdfPages(
  blob: Blob | undefined,
  /** Each page's accessible name ("Page 2 of 3"). */
  pageLabel: (page: number, pages: number) => string,
  /** False for a blob that is not a PDF (a picture): nothing is drawn. */
  enabled = true,
): { hostRef: RefObject<HTMLDivElement | null>; state: PdfDrawState } {
  const hostRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<PdfDrawState>('drawing');
  // The words may change with the language; a new function each render must not draw the pages again.
  const label = useRef(pageLabel);
  label.current = pageLabel;

  useEffect(() => {
    const host = hostRef.current;
    if (!blob || !enabled || !host) return;
    let canceled = false;
    setState('drawing');
    void (async () => {
      try {
        const { renderPdf } = await import('./pdf-render');
        await renderPdf(
          await blob.arrayBuffer(),
          host,
          (page, pages) => label.current(page, pages),
          () => canceled,
        );
        if (!canceled) setState('done');
      } catch (err) {
        if (!canceled) setState(err instanceof Error ? err : new Error(String(err)));
      }
    })();
    return () => {
      canceled = true;
    };
  }, [blob, enabled]);

  return { hostRef, state };
}

export function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const href = URL.createObjectURL(blob);
    setUrl(href);
    return () => URL.revokeObjectURL(href);
  }, [blob]);
  return url;
}
