/** The text encodings a bank file is read in (src-main/import/encoding.ts detects them). */
export type TextEncoding = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'windows-1252' | 'ISO-8859-1';

/** What every parser hands on: the file's rows in one shape, with line numbers, problems and balances. */
export type ImportFormat = 'csv' | 'ofx' | 'camt' | 'mt940' | 'qif';

export interface ParsedRow {
  /** 0-based position among the file's rows (stable: the batch's per-row outcome is keyed by it). */
  index: number;
  /** 1-based line of the file where the row starts. */
  line: number;
  /** Booking day, YYYY-MM-DD. */
  date: string;
  valueDate: string | null;
  amountMinor: number;
  currency: string;
  /** A short name for lists (counterparty, else the first words of the description). */
  name: string;
  description: string | null;
  counterparty: string | null;
  /** The bank's id of the line, namespaced by kind (`fitid:…`, `ref:…`, `e2e:…`, `mt940:…`, `csv:…`). */
  externalId: string | null;
  status: 'posted' | 'pending';
  /** The running balance after this row when the file carries one (CSV balance column). */
  balanceAfterMinor: number | null;
  /** Format-specific facts kept on the transaction's metadata (bank transaction code, batch details, charges…). */
  details: Record<string, unknown>;
  /** What the person should know about how the row was read (a booking day taken from the value date…). */
  note?: string;
}

export interface Problem {
  line: number | null;
  /** The row's position when the problem is about one row. */
  row: number | null;
  field: string | null;
  message: string;
}

/** A balance the file states: after the row at `afterIndex` (−1: before the first row), as of `date`. */
export interface BalancePoint {
  kind: 'opening' | 'intermediate' | 'closing';
  afterIndex: number;
  date: string | null;
  amountMinor: number;
  line: number | null;
}

export interface ParsedFile {
  format: ImportFormat;
  encoding: TextEncoding;
  /** The account the file names (IBAN, account number), when it names one. */
  accountRef: string | null;
  currency: string | null;
  rows: ParsedRow[];
  /** Rows left out on purpose (informational lines, zero amounts, other currencies) with the reason. */
  rejected: (Problem & { row: number })[];
  /** Anything that makes the file unreadable as a whole: the import is refused, nothing is written. */
  errors: Problem[];
  warnings: string[];
  /** Balances the file states, in time order (opening first, closing last). */
  balances: BalancePoint[];
  /** The rows run newest first (some CSV exports): time order is the reverse of file order. */
  newestFirst: boolean;
  /** The CSV mapping used (CSV only). */
  mapping: unknown;
  /** CSV: each column with its header, sample values and the fields the mapping fills from it. */
  columns?: CsvColumnInfo[];
}

/** What a CSV mapping reads from a column. */
export const MAPPED_FIELDS = [
  'date',
  'valueDate',
  'amount',
  'debit',
  'credit',
  'indicator',
  'description',
  'counterparty',
  'payer',
  'reference',
  'balance',
  'currency',
  'status',
] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];

/** A CSV column as the preview shows it: "Betrag (EUR)" → amount, with a few of its values. */
export interface CsvColumnInfo {
  index: number;
  header: string | null;
  samples: string[];
  fields: MappedField[];
}

/** A statement with nothing in it yet: what each parser fills. */
export function emptyFile(format: ImportFormat, encoding: TextEncoding, accountRef: string | null = null): ParsedFile {
  return {
    format,
    encoding,
    accountRef,
    currency: null,
    rows: [],
    rejected: [],
    errors: [],
    warnings: [],
    balances: [],
    newestFirst: false,
    mapping: null,
  };
}

export class ImportRefused extends Error {
  override name = 'ImportRefused';
  constructor(
    message: string,
    readonly problems: Problem[],
  ) {
    super(message);
  }
}

/** A short display name from a description: the first 80 characters of its first line. */
export function nameFrom(...texts: (string | null | undefined)[]): string {
  for (const t of texts) {
    const s = t?.replace(/\s+/g, ' ').trim();
    if (s) return s.length > 80 ? `${s.slice(0, 79)}…` : s;
  }
  return 'Bank transaction';
}

export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Line numbers of many offsets (ascending) in one pass. */
export function linesOf(text: string, offsets: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const off of offsets) {
    for (; pos < off && pos < text.length; pos++) if (text.charCodeAt(pos) === 10) line++;
    out.push(line);
  }
  return out;
}

/** A parsed bank file with its identity: what planning and committing an import take. */
export interface ParseResult {
  /**
   * The file's statement; for a file of several accounts' statements, a refusal saying so (the statements are
   * imported one by one from `statements`).
   */
  file: ParsedFile;
  /** One per account the file holds statements of, in file order (one for most files). */
  statements: ParsedFile[];
  /** Set when `file` is one statement of a file of several: other statements of the same file are no re-import. */
  part?: { index: number; of: number };
  sha256: string;
  size: number;
  /** What the person should check in the mapping (CSV): an ambiguous date format, a column guessed by content. */
  notes: string[];
  /** The mapping was inferred here (not given). */
  inferred: boolean;
}
