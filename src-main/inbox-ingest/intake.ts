import { detectType, MAX_FILE_BYTES } from '../documents/detect';
import { sha256 } from '../infra/blob-store';
import type { NewFile } from '../store/documents/documents';

/**
 * One file arriving by a folder or a mail, judged as an upload is (docs/decisions/0082-document-storage.md): by its
 * bytes, at most 20 MiB, a PDF or a picture. What is not a receipt is skipped with the reason, never an error.
 */
export type Intake = { ok: true; file: NewFile } | { ok: false; skipped: { sha256: string; fileName: string; reason: string } };

export const TOO_LARGE = `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`;

export async function intakeFile(bytes: Buffer, fileName: string): Promise<Intake> {
  const hash = sha256(bytes);
  const skip = (reason: string): Intake => ({ ok: false, skipped: { sha256: hash, fileName, reason } });
  if (bytes.length === 0) return skip('the file is empty');
  if (bytes.length > MAX_FILE_BYTES) return skip(TOO_LARGE);
  const type = await detectType(bytes);
  if (!type.ok) return skip(type.reason);
  return { ok: true, file: { bytes, sha256: hash, size: bytes.length, mimetype: type.mimetype, fileName } };
}

/** Splits intakes into the files to take in and those skipped (the shape ingestToInbox takes). */
export function sortIntakes(intakes: readonly Intake[]): {
  files: NewFile[];
  skipped: Extract<Intake, { ok: false }>['skipped'][];
} {
  const files: NewFile[] = [];
  const skipped: Extract<Intake, { ok: false }>['skipped'][] = [];
  for (const i of intakes) {
    if (i.ok) files.push(i.file);
    else skipped.push(i.skipped);
  }
  return { files, skipped };
}
