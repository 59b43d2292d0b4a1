import zlib from 'node:zlib';

/**
 * How far a PDF's compressed streams inflate, measured before PDF.js reads the file (docs/decisions/0170): a 100 KB
 * PDF can carry an embedded file (or a page, an image) that inflates to gigabytes, and PDF.js inflates a stream whole
 * when it reads it. Every FlateDecode stream of the file is inflated here once, its output counted and thrown away
 * (nothing is kept: the scan needs a few hundred KB whatever the stream holds), and the file is refused when one
 * stream inflates past MAX_STREAM_BYTES or all together past MAX_TOTAL_BYTES — a scanned A4 page at 300 dpi in
 * lossless colour is about 26 MB, a 20 MiB PDF of text a few times its size. It runs in the parser sandbox, whose
 * time limit bounds a file of very many small streams.
 *
 * A stream is the data after a dictionary's `stream` keyword; its dictionary says its filters. Chained Flate filters
 * (`[/FlateDecode /FlateDecode]`) are inflated in turn. The data is handed to the inflater from the keyword on, up to
 * the stream's /Length when the dictionary states it directly, else to the end of the file: zlib stops at
 * the end of the deflate data by itself, so bytes that merely look like `endstream` inside the data cannot cut the
 * count short.
 * Streams that do not inflate (another filter, encrypted data, damage) are left to PDF.js, whose reading the sandbox's
 * memory limit bounds in turn.
 */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 512 * 1024 * 1024;

export class PdfTooLarge extends Error {
  override name = 'PdfTooLarge';
}

/** How far back from a `stream` keyword its dictionary is looked for. */
const DICT_WINDOW = 4096;
const CHUNK = 64 * 1024;

interface Stream {
  start: number;
  end: number;
  flates: number;
}

const MIB = 1024 * 1024;
const mib = (n: number) => `${Math.round(n / MIB)} MiB`;

/** The dictionary before `stream` at `at` (text between its `<<` and `>>`), or null. */
function dictionaryBefore(pdf: Buffer, at: number, after: number): string | null {
  // Never further back than the keyword before: each byte is looked at by one stream's search at most.
  const from = Math.max(after, at - DICT_WINDOW);
  const text = pdf.toString('latin1', from, at);
  const close = text.lastIndexOf('>>');
  if (close < 0 || text.slice(close + 2).trim() !== '') return null;
  let depth = 0;
  for (let i = close + 1; i >= 1; i--) {
    if (text[i] === '>' && text[i - 1] === '>') {
      depth++;
      i--;
    } else if (text[i] === '<' && text[i - 1] === '<') {
      depth--;
      if (depth === 0) return text.slice(i + 1, close);
      i--;
    }
  }
  return null;
}

/** The number of Flate filters the stream's filter chain starts with (`/Filter /FlateDecode`, `[/Fl /Fl]`). */
function leadingFlates(dict: string): number {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!m) return 0;
  let n = 0;
  for (const name of m[1]!.match(/\/[A-Za-z0-9]+/g) ?? []) {
    if (name !== '/FlateDecode' && name !== '/Fl') break;
    n++;
  }
  return n;
}

function* streams(pdf: Buffer): Generator<Stream> {
  let pos = 0;
  for (;;) {
    const at = pdf.indexOf('stream', pos, 'latin1');
    if (at < 0) return;
    const after = pos;
    pos = at + 6;
    // "endstream" is not a stream's start.
    if (at >= 3 && pdf.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + 6;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] !== 0x0a && pdf[start - 1] !== 0x0d) continue;
    if (pdf[start] === 0x0a) start++;
    const dict = dictionaryBefore(pdf, at, after);
    if (!dict) continue;
    const flates = leadingFlates(dict);
    if (flates === 0) continue;
    // A direct /Length; an indirect one (`/Length 12 0 R`) is not looked up.
    const length = /\/Length\s+(\d+)(\s+\d+\s+R)?/.exec(dict);
    const end = length && !length[2] ? Math.min(pdf.length, start + Number(length[1])) : pdf.length;
    yield { start, end, flates };
  }
}

/** A zlib header (RFC 1950): deflate, a window of at most 32 KiB, the check bits right. */
function zlibHeader(pdf: Buffer, at: number): boolean {
  const cmf = pdf[at];
  const flg = pdf[at + 1];
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

/** Compressed data up to this size is inflated at once, into at most SMALL_OUTPUT bytes; larger is streamed. */
const SMALL_INPUT = 64 * 1024;
const SMALL_OUTPUT = 8 * 1024 * 1024;

/** Where the stream's data ends at the latest, for the one-step path: its /Length, else its `endstream`. */
function dataEnd(pdf: Buffer, s: Stream): number {
  if (s.end < pdf.length) return s.end;
  const at = pdf.indexOf('endstream', s.start, 'latin1');
  return at < 0 ? pdf.length : at;
}

/** One step, for the many small streams of a PDF (fonts, pages): a bounded output, null when it would pass it. */
function inflateSmall(data: Buffer, flates: number): number | null {
  let out: Buffer = data;
  for (let i = 0; i < flates; i++) {
    out = zlib.inflateSync(out, { maxOutputLength: SMALL_OUTPUT, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  }
  return out.length;
}

/**
 * The bytes the stream inflates to, counted up to `cap` (a count past it stops the inflation); null when its data
 * does not inflate. Small data is inflated in one step into a bounded buffer; the rest (and small data that would
 * pass that buffer) goes through zlib's stream chunk by chunk, each chunk counted and dropped.
 */
async function inflatedSize(pdf: Buffer, s: Stream, cap: number): Promise<number | null> {
  if (!zlibHeader(pdf, s.start)) return null;
  const end = dataEnd(pdf, s);
  if (end - s.start <= SMALL_INPUT) {
    try {
      return inflateSmall(pdf.subarray(s.start, end), s.flates);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return null;
    }
  }
  return inflatedStreaming(pdf, s, cap);
}

function inflatedStreaming(pdf: Buffer, s: Stream, cap: number): Promise<number | null> {
  return new Promise((resolve) => {
    const stages = Array.from({ length: s.flates }, () => zlib.createInflate({ chunkSize: CHUNK }));
    let out = 0;
    let settled = false;
    const done = (n: number | null) => {
      if (settled) return;
      settled = true;
      for (const z of stages) z.destroy();
      resolve(n);
    };
    for (let i = 0; i < stages.length - 1; i++) stages[i]!.pipe(stages[i + 1]!);
    for (const z of stages) z.on('error', () => done(out > 0 ? out : null));
    const last = stages[stages.length - 1]!;
    last.on('data', (chunk: Buffer) => {
      out += chunk.length;
      if (out > cap) done(out);
    });
    last.on('end', () => done(out));
    const first = stages[0]!;
    let at = s.start;
    // Fed as zlib takes it: it stops taking input at the end of the deflate data.
    const feed = () => {
      while (!settled && at < s.end) {
        const more = first.write(pdf.subarray(at, Math.min(s.end, at + CHUNK)));
        at += CHUNK;
        if (!more) {
          first.once('drain', feed);
          return;
        }
      }
      if (!settled && at >= s.end) first.end();
    };
    feed();
  });
}

/** Refuses (PdfTooLarge) a PDF whose streams inflate past the limits; resolves when they stay within them. */
export async function checkPdfInflation(bytes: Uint8Array): Promise<void> {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (const s of streams(pdf)) {
    const size = await inflatedSize(pdf, s, Math.min(MAX_STREAM_BYTES, MAX_TOTAL_BYTES - total));
    if (size === null) continue;
    if (size > MAX_STREAM_BYTES) {
      throw new PdfTooLarge(`the PDF holds a compressed stream that inflates past ${mib(MAX_STREAM_BYTES)}`);
    }
    total += size;
    if (total > MAX_TOTAL_BYTES) {
      throw new PdfTooLarge(`the PDF's compressed streams inflate past ${mib(MAX_TOTAL_BYTES)} together`);
    }
  }
}
