/**
 * What a file is, from its bytes (never its name or declared type): file-type reads the magic numbers. The accepted
 * kinds and the size limit are the product's (docs/decisions/0082-document-storage.md).
 */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const ACCEPTED_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic', 'image/heif'] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

/** Photos in Apple's format, decoded for extraction by documents/heic.ts. */
export function isHeif(type: AcceptedType): boolean {
  return type === 'image/heic' || type === 'image/heif';
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
  const detected = found?.mime ?? null;
  const reason = `The file is ${detected ? `a ${detected} file` : 'of an unknown type'}; upload a PDF, PNG, JPEG or HEIC`;
  return { ok: false, reason, detected };
}
