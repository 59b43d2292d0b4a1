/**
 * What a file is, from its bytes (never its name or declared type): file-type reads the magic numbers. The accepted
 * kinds and the size limit are the product's (docs/decisions/0082-document-storage.md); XML is accepted for e-invoices
 * (docs/decisions/0160-e-invoices.md).
 */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const ACCEPTED_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/heic',
  'image/heif',
  'application/xml',
] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

/** Photos in Apple's format, decoded for extraction by documents/images.ts. */
export function isHeif(type: AcceptedType): boolean {
  return type === 'image/heic' || type === 'image/heif';
}

/** Text that begins (after a byte-order mark and white space) with an element or a processing instruction. */
function looksLikeXml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^<(\?xml|[A-Za-z_][\w.-]*:?[\w.-]*[\s>/])/.test(head);
}

type FileTypeModule = typeof import('file-type');
let fileType: Promise<FileTypeModule> | undefined;

export type Detection =
  | { ok: true; mimetype: AcceptedType; ext: string }
  | { ok: false; reason: string; detected: string | null };

export async function detectType(bytes: Uint8Array): Promise<Detection> {
  fileType ??= import('file-type');
  const found = await (await fileType).fileTypeFromBuffer(bytes);
  if (found && (ACCEPTED_TYPES as readonly string[]).includes(found.mime)) {
    return { ok: true, mimetype: found.mime as AcceptedType, ext: found.ext };
  }
  // An e-invoice's XML (UBL, CII) without an XML declaration has no magic number: its first element says it.
  if (!found && looksLikeXml(bytes)) return { ok: true, mimetype: 'application/xml', ext: 'xml' };
  const detected = found?.mime ?? null;
  const reason = `The file is ${detected ? `a ${detected} file` : 'of an unknown type'}; upload a PDF, PNG, JPEG, HEIC or an e-invoice's XML`;
  return { ok: false, reason, detected };
}
