import { imageSize } from 'image-size';
import { type AcceptedType, isHeif } from './detect';

/**
 * A photo or picture made ready for OCR, in the parser sandbox (docs/decisions/0170): its size is read from its header
 * first (image-size) and a decoder only ever sees images of a sane size.
 * - An image that declares more than MAX_IMAGE_PIXELS is refused unread: a few hundred bytes of PNG or JPEG can
 *   declare 50,000 × 50,000 pixels, which a decoder allocates (10 GB) before it finds the data missing. 60 megapixels
 *   take every phone camera's full resolution (48–50 MP) and no decoder past ~240 MB.
 * - One larger than OCR_PIXELS is decoded once and scaled down to it before OCR: tesseract reads a receipt best at
 *   about 300 dpi (an A4 page is 8.7 MP there), and scaling keeps its own decode small.
 * - HEIC/HEIF (the iPhone camera's default format) is decoded by heic-decode (libheif in WebAssembly), its rotation
 *   applied, and written as PNG by @napi-rs/canvas, which also scales.
 */
export const MAX_IMAGE_PIXELS = 60_000_000;
export const OCR_PIXELS = 16_000_000;

export class ImageTooLarge extends Error {
  override name = 'ImageTooLarge';
}

export class HeicDecodeError extends Error {
  override name = 'HeicDecodeError';
}

const megapixels = (n: number) => `${Math.round(n / 100_000) / 10} megapixels`;

/** The image's width and height as its header declares them; null when the header cannot be read. */
export function declaredSize(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

type Canvas = typeof import('@napi-rs/canvas');
const canvasModule = () => import('@napi-rs/canvas') as Promise<Canvas>;

/** Pixels (RGBA) as a PNG, scaled down to OCR_PIXELS when larger. */
async function toPng(width: number, height: number, draw: (ctx: import('@napi-rs/canvas').SKRSContext2D, scale: number) => void) {
  const { createCanvas } = await canvasModule();
  const scale = Math.min(1, Math.sqrt(OCR_PIXELS / (width * height)));
  const canvas = createCanvas(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale)));
  draw(canvas.getContext('2d'), scale);
  return new Uint8Array(await canvas.encode('png'));
}

async function heicToPng(bytes: Uint8Array): Promise<Uint8Array> {
  const decode = (await import('heic-decode')).default;
  let decoded: Awaited<ReturnType<typeof decode>>;
  try {
    decoded = await decode({ buffer: bytes });
  } catch (err) {
    throw new HeicDecodeError(`The HEIC image could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { createCanvas, ImageData } = await canvasModule();
  const { width, height, data } = decoded;
  const full = createCanvas(width, height);
  full.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(data), width, height), 0, 0);
  if (width * height <= OCR_PIXELS) return new Uint8Array(await full.encode('png'));
  return toPng(width, height, (ctx, scale) => ctx.drawImage(full, 0, 0, width * scale, height * scale));
}

/** The image bytes OCR is to read: the file itself, or a PNG of it decoded (HEIC) or scaled (a very large photo). */
export async function imageForOcr(bytes: Uint8Array, mimetype: AcceptedType): Promise<Uint8Array> {
  const size = declaredSize(bytes);
  if (!size) {
    if (isHeif(mimetype)) throw new HeicDecodeError('The HEIC image could not be decoded: its header states no size');
    throw new ImageTooLarge('the image’s header states no size');
  }
  const pixels = size.width * size.height;
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new ImageTooLarge(
      `the image declares ${size.width} × ${size.height} pixels (${megapixels(pixels)}); at most ${megapixels(MAX_IMAGE_PIXELS)} are read`,
    );
  }
  if (isHeif(mimetype)) return heicToPng(bytes);
  if (pixels <= OCR_PIXELS) return bytes;
  const { loadImage } = await canvasModule();
  const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return toPng(image.width, image.height, (ctx, scale) => ctx.drawImage(image, 0, 0, image.width * scale, image.height * scale));
}
