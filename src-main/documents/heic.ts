import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * HEIC/HEIF photos (the iPhone camera's default format) turned into PNG bytes for OCR, entirely local: heic-decode
 * (libheif compiled to WebAssembly) gives the pixels, with the photo's rotation applied, and @napi-rs/canvas (already
 * here for PDF pages) writes the PNG. The decode is synchronous CPU work of a second or more for a 12-megapixel photo,
 * so it runs in a worker thread of its own, never on the server's event loop. The libraries are resolved here and
 * handed to the worker by absolute path, so the same code works from the sources and from the desktop bundle.
 * docs/decisions/0083-document-extraction.md.
 */
const resolve = createRequire(__filename).resolve;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.heicDecode);
const { createCanvas, ImageData } = require(workerData.canvas);
(async () => {
  const { width, height, data } = await decode({ buffer: workerData.bytes });
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(data), width, height), 0, 0);
  const png = await canvas.encode('png');
  parentPort.postMessage({ png });
})().catch((err) => parentPort.postMessage({ error: String(err && err.message ? err.message : err) }));
`;

export class HeicDecodeError extends Error {
  override name = 'HeicDecodeError';
}

export function heicToPng(bytes: Buffer): Promise<Buffer> {
  return new Promise((done, fail) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes, heicDecode: resolve('heic-decode'), canvas: resolve('@napi-rs/canvas') },
    });
    let settled = false;
    worker.once('message', (m: { png?: Uint8Array; error?: string }) => {
      settled = true;
      void worker.terminate();
      if (m.error || !m.png) fail(new HeicDecodeError(`The HEIC image could not be decoded: ${m.error ?? 'no image'}`));
      else done(Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength));
    });
    worker.once('error', (err) => {
      if (!settled) fail(new HeicDecodeError(`The HEIC image could not be decoded: ${err.message}`));
    });
    worker.once('exit', (code) => {
      if (!settled) fail(new HeicDecodeError(`The HEIC decoder stopped (exit code ${code})`));
    });
  });
}
