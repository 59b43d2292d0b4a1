import { createHash } from 'node:crypto';
import { type CsvMapping, CsvMapping as CsvMappingSchema } from '../../src-shared/contract/import-mapping';
import {
  emptyFile,
  type ImportFormat,
  type ParsedFile,
  type ParseResult,
  type Problem,
} from '../../src-shared/domain/import/types';
import { declaredEncoding, decode, type TextEncoding } from './encoding';
import { parseCamt } from './parsers/camt';
import { inferCsvMapping, parseCsv } from './parsers/csv';
import { parseMt940 } from './parsers/mt940';
import { parseOfx } from './parsers/ofx';
import { parseQif } from './parsers/qif';

export type { ParseResult };

/**
 * One entry point for every bank file: detect the format from the content (never from the file name alone), decode
 * the text, parse, and hand back a ParsedFile with line-level problems. Pure: no database.
 */

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The format of a file, from its first bytes (the file name only breaks a tie). */
export function detectFormat(head: string, filename?: string | null): ImportFormat {
  const start = head.slice(0, 4000).replace(/^\uFEFF/, '');
  if (/^\s*OFXHEADER\s*:/i.test(start) || /<\?OFX\b/i.test(start) || /<OFX>/i.test(start)) return 'ofx';
  if (/^\s*<\?xml/i.test(start) || /^\s*<(\w+:)?Document\b/.test(start)) {
    if (/camt\.05[234]|BkToCstmr/.test(start)) return 'camt';
    if (/<OFX>/i.test(head)) return 'ofx';
    return 'camt';
  }
  if (/^\s*(\{1:[^}]*\})?.*?:20:/s.test(start.slice(0, 400)) && /(^|\n):(60[FM]|61|25):/.test(start)) return 'mt940';
  if (/^\s*!(Type|Account|Option|Clear)\b/i.test(start)) return 'qif';
  const ext = filename?.toLowerCase().split('.').pop();
  if (ext === 'qif') return 'qif';
  if (ext === 'ofx' || ext === 'qfx') return 'ofx';
  if (ext === 'sta' || ext === 'mt940') return 'mt940';
  return 'csv';
}

export interface ParseOptions {
  filename?: string | null;
  /** The account's currency: rows in another are rejected. */
  currency: string;
  /** The CSV mapping to use (a saved one, or the preview's adjusted one); inferred when absent. */
  mapping?: CsvMapping | null;
  /** Force an encoding instead of detecting it (a person who knows better). */
  encoding?: TextEncoding | null;
  /** camt: split a batch entry into one row per transaction detail. */
  splitBatches?: boolean;
}

function empty(format: ImportFormat, encoding: TextEncoding, errors: Problem[]): ParsedFile {
  return { ...emptyFile(format, encoding), errors };
}

/** What a single-statement import gets from a file of several accounts: a refusal saying how it is imported. */
function severalAccounts(statements: readonly ParsedFile[]): ParsedFile {
  const refs = statements.map((s) => s.accountRef ?? '(no account named)');
  return empty(statements[0]!.format, statements[0]!.encoding, [
    {
      line: null,
      row: null,
      field: 'account',
      message: `The file holds statements of ${statements.length} accounts (${refs.join(', ')}): each is imported into the account it names`,
    },
  ]);
}

export function parseBankFile(bytes: Uint8Array, options: ParseOptions): ParseResult {
  const hash = sha256(bytes);
  const base = { sha256: hash, size: bytes.byteLength, notes: [] as string[], inferred: false };
  const one = (file: ParsedFile, more: Partial<ParseResult> = {}): ParseResult => ({
    ...base,
    ...more,
    file,
    statements: [file],
  });
  if (bytes.byteLength === 0) {
    return one(empty('csv', 'UTF-8', [{ line: null, row: null, field: null, message: 'The file is empty' }]));
  }
  const peek = Buffer.from(bytes.subarray(0, 4000)).toString('latin1');
  const format = detectFormat(peek, options.filename);
  let declared: TextEncoding | undefined;
  if (format === 'ofx') {
    const charset = /^\s*CHARSET\s*:\s*(\S+)/im.exec(peek)?.[1];
    const enc = /^\s*ENCODING\s*:\s*(\S+)/im.exec(peek)?.[1];
    declared =
      declaredEncoding(enc?.toUpperCase() === 'UTF-8' ? 'utf-8' : charset) ??
      declaredEncoding(/encoding="([^"]+)"/i.exec(peek)?.[1]);
  } else if (format === 'camt') {
    declared = declaredEncoding(/<\?xml[^>]*encoding=["']([^"']+)["']/i.exec(peek)?.[1]);
  }
  const { text, encoding } = options.encoding
    ? { text: decode(bytes, options.encoding).text, encoding: options.encoding }
    : decode(bytes, declared);
  if (format === 'csv') {
    let mapping = options.mapping ?? null;
    let notes: string[] = [];
    if (!mapping) {
      try {
        const inferred = inferCsvMapping(text);
        mapping = inferred.mapping;
        notes = inferred.notes;
      } catch (problems) {
        if (Array.isArray(problems)) return one(empty('csv', encoding, problems as Problem[]));
        throw problems;
      }
    } else {
      mapping = CsvMappingSchema.parse(mapping);
    }
    return one(parseCsv(text, { mapping, encoding, currency: options.currency }), { notes, inferred: !options.mapping });
  }
  const statements =
    format === 'ofx'
      ? parseOfx(text, encoding, options.currency)
      : format === 'camt'
        ? parseCamt(text, encoding, options.currency, { splitBatches: options.splitBatches })
        : format === 'qif'
          ? parseQif(text, encoding, options.currency)
          : parseMt940(text, encoding, options.currency);
  return { ...base, file: statements.length === 1 ? statements[0]! : severalAccounts(statements), statements };
}
