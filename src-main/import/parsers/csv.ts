import { parse } from 'csv-parse/sync';
import type { CsvColumn, CsvMapping } from '../../../src-shared/contract/import-mapping';
import { inferDecimal, parseAmount } from '../../../src-shared/domain/import/amounts';
import { type DateFormat, inferDateFormat, parseDate } from '../../../src-shared/domain/import/dates';
import {
  type BalancePoint,
  type CsvColumnInfo,
  emptyFile,
  type MappedField,
  nameFrom,
  type ParsedFile,
  type ParsedRow,
  type Problem,
} from '../../../src-shared/domain/import/types';
import type { TextEncoding } from '../encoding';
import { normHeader, type Role, rolesFromHeaders } from './csv-headers';
import { statedBalances } from './csv-stated-balances';
import { AMOUNT_OR_DATE_CHARS, MAX_RECORD_CHARS } from './limits';

/**
 * CSV bank exports (docs/decisions/0060, 0061): csv-parse reads the records (quotes, embedded newlines, BOM); this
 * module decides the dialect — delimiter, header row, column roles, date format, decimal separator, sign convention —
 * from the whole file, and turns records into rows with exact amounts and line numbers.
 */

interface Record_ {
  cells: string[];
  /** 1-based line where the record starts. */
  line: number;
}

const DELIMITERS = [';', ',', '\t', '|'] as const;

function readRecords(text: string, delimiter: string): { records: Record_[]; error: Problem | null } {
  try {
    const out = parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
      info: true,
      raw: true,
      max_record_size: MAX_RECORD_CHARS,
    }) as unknown as { record: string[]; info: { lines: number; raw?: string } }[];
    return {
      records: out.map(({ record, info }) => {
        const raw = (info.raw ?? '').replace(/\r?\n$/, '');
        const inner = raw.split('\n').length - 1;
        return { cells: record.map((c) => c.trim()), line: info.lines - inner };
      }),
      error: null,
    };
  } catch (err) {
    const e = err as { message?: string; lines?: number; code?: string };
    const message =
      e.code === 'CSV_MAX_RECORD_SIZE'
        ? `a record longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters: not a bank export`
        : (e.message ?? String(err));
    return { records: [], error: { line: e.lines ?? null, row: null, field: null, message } };
  }
}

/** The delimiter under which most records share one field count (of at least two). */
export function sniffDelimiter(text: string): (typeof DELIMITERS)[number] {
  const sample = text.split('\n').slice(0, 400).join('\n');
  let best: { d: (typeof DELIMITERS)[number]; score: number; width: number } = { d: ',', score: -1, width: 0 };
  for (const d of DELIMITERS) {
    const { records } = readRecords(sample, d);
    const counts = new Map<number, number>();
    for (const r of records) counts.set(r.cells.length, (counts.get(r.cells.length) ?? 0) + 1);
    let width = 0;
    let score = 0;
    for (const [w, n] of counts) {
      if (w >= 2 && (n > score || (n === score && w > width))) {
        width = w;
        score = n;
      }
    }
    if (score > best.score || (score === best.score && width > best.width)) best = { d, score, width };
  }
  return best.d;
}

const col = (index: number, headers: readonly string[] | null): CsvColumn => ({ index, header: headers?.[index] ?? null });

/**
 * A cell that reads as an amount: sign or parenthesis, symbol, digits with their separators, closing parenthesis or
 * trailing minus, code or symbol. Each run of spaces belongs to exactly one part of the pattern, so it never
 * backtracks (one with `\s` in the digits and again after them took 15 s for a cell of 2,000 spaces).
 */
function looksLikeAmount(v: string): boolean {
  const s = v.trim();
  return (
    s.length <= AMOUNT_OR_DATE_CHARS &&
    /^[(+\-\u2212]?\s*[€$£]?\s*\d[\d.,'\s\u00a0]*(?:\)\s*)?(?:-\s*)?(?:[A-Z]{3}|[€$£])?$/.test(s)
  );
}

function anyDate(v: string): boolean {
  return inferDateFormat([v]) !== null;
}

/** A record that reads as a transaction: a date in one cell and an amount in another. */
function transactionLike(r: Record_): boolean {
  const dates = r.cells.map(anyDate);
  return dates.some(Boolean) && r.cells.some((c, i) => !dates[i] && c !== '' && looksLikeAmount(c));
}

/**
 * The field count of the data lines: the most common one among lines that read as transactions (a short statement
 * can have fewer of them than key/value lines above the header), else the most common of at least two.
 */
function dataWidth(records: readonly Record_[]): number {
  const pick = (list: readonly Record_[]) => {
    const counts = new Map<number, number>();
    for (const r of list) if (r.cells.length >= 2) counts.set(r.cells.length, (counts.get(r.cells.length) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
  };
  return pick(records.slice(0, 400).filter(transactionLike)) || pick(records);
}

export interface CsvInference {
  mapping: CsvMapping;
  /** What the person should check: an ambiguous date format, a guessed column. */
  notes: string[];
}

/** Infers a mapping from the whole file; throws a Problem list when no date or amount column can be found. */
export function inferCsvMapping(text: string): CsvInference {
  const delimiter = sniffDelimiter(text);
  const { records, error } = readRecords(text, delimiter);
  if (error) throw [error];
  const notes: string[] = [];
  const width = dataWidth(records);
  if (width < 2) throw [{ line: 1, row: null, field: null, message: 'No columns found: the file is not a CSV export' }];

  // The header: the first full-width record without dates or amounts, followed by one with a date. Lines above it
  // (an account block, a period "01.03.2026 – 31.03.2026") may hold dates; the search stops where data begins.
  let headerRow: number | null = null;
  let firstDataRow = records.findIndex((r) => r.cells.length === width && r.cells.some(anyDate));
  const dataLike = (r: Record_ | undefined) => !!r && r.cells.length >= width - 1 && r.cells.some(anyDate);
  for (let i = 0; i < Math.min(records.length - 1, 40); i++) {
    const r = records[i]!;
    // A header may lack the empty cell a trailing delimiter gives every data line.
    if (r.cells.length < width - 1) continue;
    const textual = r.cells.filter((c) => c !== '' && !anyDate(c) && !looksLikeAmount(c)).length;
    if (textual >= Math.ceil(width / 2) && !transactionLike(r) && dataLike(records[i + 1])) {
      headerRow = i;
      firstDataRow = i + 1;
      break;
    }
    if (dataLike(r) && dataLike(records[i + 1])) break;
  }
  if (firstDataRow < 0)
    throw [{ line: null, row: null, field: 'date', message: 'No column holds dates: cannot find the booking date' }];
  const headers = headerRow === null ? null : records[headerRow]!.cells;
  const data = records.slice(firstDataRow).filter((r) => r.cells.length === width);
  const column = (i: number) => data.map((r) => r.cells[i] ?? '');

  const named = headers ? rolesFromHeaders(headers) : { roles: {}, payer: null, description: [] };
  const roles: Partial<Record<Role, number>> = { ...named.roles };
  const descriptions = [...named.description];

  // Content decides where headers did not (or there is no header): dates, amounts, text.
  // A column is the date (or amount) column when at least 80 % of its values read as such: the rest are reported
  // row by row instead of hiding the column.
  const dateOk = (i: number) => inferDateFormat(column(i), 0.8) !== null;
  if (roles.date === undefined || !dateOk(roles.date)) {
    const found = [...Array(width).keys()].find((i) => i !== roles.valueDate && dateOk(i));
    if (found === undefined) throw [{ line: null, row: null, field: 'date', message: 'No column holds dates in every row' }];
    roles.date = found;
    notes.push(`booking date taken from column ${found + 1} by its content`);
  }
  const numeric = (i: number) => {
    const vals = column(i).filter((v) => v !== '');
    return vals.length > 0 && vals.filter(looksLikeAmount).length >= Math.ceil(vals.length * 0.8);
  };
  if (roles.indicator !== undefined && roles.amount === undefined) roles.indicator = undefined;
  const split = roles.debit !== undefined && roles.credit !== undefined && roles.amount === undefined;
  if (!split && (roles.amount === undefined || !numeric(roles.amount))) {
    const used = new Set(Object.values(roles));
    const found = [...Array(width).keys()].find((i) => !used.has(i) && numeric(i) && !dateOk(i));
    if (found === undefined) throw [{ line: null, row: null, field: 'amount', message: 'No column holds amounts' }];
    roles.amount = found;
    notes.push(`amount taken from column ${found + 1} by its content`);
  }
  if (descriptions.length === 0) {
    const used = new Set(Object.values(roles));
    const textLength = (i: number) => column(i).reduce((s, v) => s + (looksLikeAmount(v) || anyDate(v) ? 0 : v.length), 0);
    const candidates = [...Array(width).keys()].filter((i) => !used.has(i)).sort((a, b) => textLength(b) - textLength(a));
    if (candidates[0] !== undefined && textLength(candidates[0]) > 0) descriptions.push(candidates[0]);
  }

  const amountColumns = split ? [roles.debit!, roles.credit!] : [roles.amount!];
  const amountValues = amountColumns.flatMap(column);
  if (roles.balance !== undefined) amountValues.push(...column(roles.balance));
  const { decimal } = inferDecimal(amountValues);
  const dates = inferDateFormat(column(roles.date), 0.8)!;
  if (dates.ambiguous) {
    notes.push(
      `dates read as ${dates.format} (the rows are in date order that way); ${dates.alternatives.join(', ')} would also fit: check`,
    );
  }

  let amount: CsvMapping['amount'];
  if (split) {
    amount = { kind: 'split', debit: col(roles.debit!, headers), credit: col(roles.credit!, headers) };
  } else if (roles.indicator !== undefined) {
    const values = [...new Set(column(roles.indicator).map((v) => v.trim()))];
    const debitValues = values.filter((v) => /^(af|s|soll|d|dr|debit|db|-)$/i.test(v));
    amount = debitValues.length
      ? { kind: 'indicator', column: col(roles.amount!, headers), indicator: col(roles.indicator, headers), debitValues }
      : { kind: 'signed', column: col(roles.amount!, headers) };
  } else {
    amount = { kind: 'signed', column: col(roles.amount!, headers) };
  }
  const opt = (i: number | undefined) => (i === undefined ? null : col(i, headers));
  return {
    mapping: {
      delimiter,
      headerRow,
      firstDataRow,
      date: col(roles.date, headers),
      dateFormat: dates.format,
      valueDate: opt(roles.valueDate),
      amount,
      decimal,
      invert: false,
      description: descriptions.map((i) => col(i, headers)),
      counterparty: opt(roles.counterparty),
      payer: opt(named.payer ?? undefined),
      reference: opt(roles.reference),
      balance: opt(roles.balance),
      currency: opt(roles.currency),
      status: opt(roles.status),
    },
    notes,
  };
}

/** What each mapped field is, as the messages about a file say it. */
const FIELD_WORDS: Record<MappedField, string> = {
  date: 'the booking day',
  valueDate: 'the value day',
  amount: 'the amount',
  debit: 'money out',
  credit: 'money in',
  indicator: 'the debit/credit mark',
  description: 'a description',
  counterparty: 'the counterparty',
  payer: 'the payer',
  reference: 'the reference',
  balance: 'the balance',
  currency: 'the currency',
  status: 'the status',
};

/** Every column a mapping names, with the field it fills (the preview's "column → field"). */
export function mappedColumns(m: CsvMapping): { field: MappedField; column: CsvColumn }[] {
  const out: { field: MappedField; column: CsvColumn }[] = [{ field: 'date', column: m.date }];
  const add = (field: MappedField, c: CsvColumn | null) => {
    if (c) out.push({ field, column: c });
  };
  add('valueDate', m.valueDate);
  if (m.amount.kind === 'split') {
    add('debit', m.amount.debit);
    add('credit', m.amount.credit);
  } else {
    add('amount', m.amount.column);
    if (m.amount.kind === 'indicator') add('indicator', m.amount.indicator);
  }
  for (const d of m.description) add('description', d);
  add('counterparty', m.counterparty);
  add('payer', m.payer);
  add('reference', m.reference);
  add('balance', m.balance);
  add('currency', m.currency);
  add('status', m.status);
  return out;
}

const sameHeader = (a: string, b: string) => a === b || normHeader(a) === normHeader(b);

interface Located {
  headerRow: number | null;
  firstDataRow: number;
  headers: string[] | null;
}

/**
 * Where a mapping's header row is in this file: at its saved record when that record names every column the mapping
 * names, else the first record that does (a bank added a line above the header). A column the file lacks is a
 * problem naming the column.
 */
function locateHeader(records: readonly Record_[], m: CsvMapping): Located | Problem {
  if (m.headerRow === null) return { headerRow: null, firstDataRow: m.firstDataRow, headers: null };
  const named = mappedColumns(m).filter(({ column }) => column.header !== null);
  const missing = (r: Record_ | undefined) =>
    r ? named.filter(({ column }) => !r.cells.some((h) => sameHeader(h, column.header!))) : named;
  const at = (i: number): Located => ({
    headerRow: i,
    firstDataRow: i + Math.max(1, m.firstDataRow - m.headerRow!),
    headers: records[i]!.cells,
  });
  if (missing(records[m.headerRow]).length === 0) return at(m.headerRow);
  let best = { i: -1, missing: named };
  for (let i = 0; i < Math.min(records.length, 60); i++) {
    const lacks = missing(records[i]);
    if (lacks.length === 0) return at(i);
    if (lacks.length < best.missing.length) best = { i, missing: lacks };
  }
  // Said in words, not as the mapping's field names ("valueDate"): the person sees their bank's headers.
  const lacking = best.missing.map(({ field, column }) => `"${column.header}" (${FIELD_WORDS[field]})`).join(', ');
  return {
    line: best.i >= 0 ? records[best.i]!.line : null,
    row: null,
    field: 'mapping',
    message: `the file lacks the column${best.missing.length > 1 ? 's' : ''} the saved mapping reads: ${lacking}`,
  };
}

/** A mapped column in this file: by its header text when the file has a header row, else by position. */
function resolve(c: CsvColumn, headers: readonly string[] | null): number {
  if (!headers || c.header === null) return c.index;
  const exact = headers.indexOf(c.header);
  return exact >= 0 ? exact : headers.findIndex((h) => sameHeader(h, c.header!));
}

/** The mapping as it applies to this file: the header row where it was found and each column's position in it. */
function aligned(m: CsvMapping, where: Located, headers: readonly string[] | null): CsvMapping {
  const place = (c: CsvColumn): CsvColumn => ({ index: resolve(c, headers), header: c.header ?? headers?.[c.index] ?? null });
  const opt = (c: CsvColumn | null) => (c ? place(c) : null);
  const amount: CsvMapping['amount'] =
    m.amount.kind === 'split'
      ? { kind: 'split', debit: place(m.amount.debit), credit: place(m.amount.credit) }
      : m.amount.kind === 'indicator'
        ? { ...m.amount, column: place(m.amount.column), indicator: place(m.amount.indicator) }
        : { kind: 'signed', column: place(m.amount.column) };
  return {
    ...m,
    headerRow: where.headerRow,
    firstDataRow: where.firstDataRow,
    date: place(m.date),
    valueDate: opt(m.valueDate),
    amount,
    description: m.description.map(place),
    counterparty: opt(m.counterparty),
    payer: opt(m.payer),
    reference: opt(m.reference),
    balance: opt(m.balance),
    currency: opt(m.currency),
    status: opt(m.status),
  };
}

/** Each column of the file with its header, a few sample values and the field the mapping fills from it. */
function describeColumns(m: CsvMapping, headers: readonly string[] | null, data: readonly Record_[]): CsvColumnInfo[] {
  const width = Math.max(headers?.length ?? 0, ...data.slice(0, 20).map((r) => r.cells.length));
  const fields = new Map<number, MappedField[]>();
  for (const { field, column } of mappedColumns(m)) {
    if (column.index >= 0) fields.set(column.index, [...(fields.get(column.index) ?? []), field]);
  }
  return Array.from({ length: width }, (_, index) => ({
    index,
    header: headers?.[index] ?? null,
    samples: [...new Set(data.map((r) => r.cells[index] ?? '').filter((v) => v !== ''))].slice(0, 3),
    fields: fields.get(index) ?? [],
  }));
}

export interface CsvParseOptions {
  mapping: CsvMapping;
  encoding: TextEncoding;
  /** The account's currency: every row is in it unless a currency column says otherwise. */
  currency: string;
}

export function parseCsv(text: string, options: CsvParseOptions): ParsedFile {
  const { currency } = options;
  const file: ParsedFile = { ...emptyFile('csv', options.encoding), currency, mapping: options.mapping };
  const { records, error } = readRecords(text, options.mapping.delimiter);
  if (error) {
    file.errors.push(error);
    return file;
  }
  const where = locateHeader(records, options.mapping);
  if ('message' in where) {
    file.errors.push(where);
    return file;
  }
  const headers = where.headers;
  const m = aligned(options.mapping, where, headers);
  file.mapping = m;
  file.columns = describeColumns(m, headers, records.slice(m.firstDataRow, m.firstDataRow + 50));
  const at = (c: CsvColumn | null) => (c ? c.index : -1);
  const idx = {
    date: at(m.date),
    valueDate: at(m.valueDate),
    description: m.description.map((c) => at(c)),
    counterparty: at(m.counterparty),
    payer: at(m.payer),
    reference: at(m.reference),
    balance: at(m.balance),
    currency: at(m.currency),
    status: at(m.status),
  };
  const amountIdx = {
    split: m.amount.kind === 'split',
    debit: m.amount.kind === 'split' ? at(m.amount.debit) : -1,
    credit: m.amount.kind === 'split' ? at(m.amount.credit) : -1,
    amount: m.amount.kind === 'split' ? -1 : at(m.amount.column),
    indicator: m.amount.kind === 'indicator' ? at(m.amount.indicator) : -1,
  };
  const debitValues = new Set(m.amount.kind === 'indicator' ? m.amount.debitValues.map((v) => v.trim().toLowerCase()) : []);
  const fmt = { decimal: m.decimal };
  // The data lines' own width (a header may lack the empty cell of a trailing delimiter).
  const widths = new Map<number, number>();
  for (const r of records.slice(m.firstDataRow)) widths.set(r.cells.length, (widths.get(r.cells.length) ?? 0) + 1);
  const width = [...widths].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? headers?.length ?? 0;
  const skipped: number[] = [];

  for (let r = m.firstDataRow; r < records.length; r++) {
    const rec = records[r]!;
    const cell = (i: number) => (i >= 0 ? (rec.cells[i] ?? '') : '');
    const dateText = cell(idx.date);
    // Lines of another width (totals, "opening balance" notes, a footer) are not transactions.
    if (rec.cells.length < Math.min(width, idx.date + 1) || (rec.cells.length !== width && !parseDate(dateText, m.dateFormat))) {
      skipped.push(rec.line);
      continue;
    }
    const index = file.rows.length + file.rejected.length;
    const problem = (field: string, message: string) => file.errors.push({ line: rec.line, row: index, field, message });
    const date = parseDate(dateText, m.dateFormat as DateFormat);
    if (!date) {
      if (dateText === '' && rec.cells.every((c, i) => i === idx.date || c === '' || !looksLikeAmount(c))) {
        skipped.push(rec.line);
        continue;
      }
      problem('date', `"${dateText}" is not a date in the format ${m.dateFormat}`);
      continue;
    }
    // A dated line without any amount states something else (BofA's "Beginning balance as of …" line).
    const amountCells = amountIdx.split ? [amountIdx.debit, amountIdx.credit] : [amountIdx.amount];
    if (amountCells.every((i) => cell(i) === '')) {
      skipped.push(rec.line);
      continue;
    }
    const rowCurrency = idx.currency >= 0 && cell(idx.currency) ? cell(idx.currency).toUpperCase() : currency;
    let amountMinor: number | null;
    let amountText: string;
    try {
      if (amountIdx.split) {
        const d = cell(amountIdx.debit);
        const c = cell(amountIdx.credit);
        amountText = `${d}|${c}`;
        const dm = d === '' ? 0 : parseAmount(d, fmt, rowCurrency);
        const cm = c === '' ? 0 : parseAmount(c, fmt, rowCurrency);
        amountMinor = dm === null || cm === null || (d === '' && c === '') ? null : Math.abs(cm) - Math.abs(dm);
      } else {
        amountText = cell(amountIdx.amount);
        amountMinor = parseAmount(amountText, fmt, rowCurrency);
        if (amountMinor !== null && amountIdx.indicator >= 0) {
          const debit = debitValues.has(cell(amountIdx.indicator).trim().toLowerCase());
          amountMinor = debit ? -Math.abs(amountMinor) : Math.abs(amountMinor);
        }
      }
    } catch {
      file.rejected.push({ line: rec.line, row: index, field: 'currency', message: `unknown currency "${rowCurrency}"` });
      continue;
    }
    if (amountMinor === null) {
      problem('amount', `"${amountText}" is not an amount (decimal separator "${m.decimal}")`);
      continue;
    }
    if (m.invert) amountMinor = -amountMinor;
    const description =
      idx.description
        .map(cell)
        .filter((s) => s !== '')
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim() || null;
    // Separate payer and payee columns: the other party is the payer of money in, the payee of money out.
    const counterparty = (amountMinor > 0 && idx.payer >= 0 ? cell(idx.payer) : cell(idx.counterparty)) || null;
    let balanceAfterMinor: number | null = null;
    if (idx.balance >= 0 && cell(idx.balance) !== '') {
      balanceAfterMinor = parseAmount(cell(idx.balance), fmt, rowCurrency);
      if (balanceAfterMinor === null) {
        problem('balance', `"${cell(idx.balance)}" is not a balance amount`);
        continue;
      }
    }
    const row: ParsedRow = {
      index,
      line: rec.line,
      date,
      valueDate: idx.valueDate >= 0 ? parseDate(cell(idx.valueDate), m.dateFormat) : null,
      amountMinor,
      currency: rowCurrency,
      name: nameFrom(counterparty, description),
      description,
      counterparty,
      externalId: idx.reference >= 0 && cell(idx.reference) ? `csv:${cell(idx.reference)}` : null,
      status:
        idx.status >= 0 && /pend|vorgemerkt|en cours|pendiente|in behandeling/i.test(cell(idx.status)) ? 'pending' : 'posted',
      balanceAfterMinor,
      details: {},
    };
    if (rowCurrency !== currency) {
      file.rejected.push({
        line: rec.line,
        row: index,
        field: 'currency',
        message: `in ${rowCurrency}, but the account holds ${currency}`,
      });
      continue;
    }
    file.rows.push(row);
  }
  if (skipped.length > 0) {
    file.warnings.push(
      `${skipped.length} line${skipped.length === 1 ? '' : 's'} that are not transactions skipped (line ${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? ', …' : ''})`,
    );
  }
  if (file.rows.length === 0 && file.errors.length === 0) {
    file.errors.push({ line: null, row: null, field: null, message: 'The file holds no transactions' });
  }
  file.balances = runningBalancePoints(file.rows);
  if (file.balances.length === 0) {
    // No running balance: the balances the export states beside its table (above the header, below the rows).
    const skippedLines = new Set(skipped);
    const outside = [...records.slice(0, m.headerRow ?? m.firstDataRow), ...records.filter((r) => skippedLines.has(r.line))];
    file.balances = statedBalances(outside, file.rows, { decimal: m.decimal, dateFormat: m.dateFormat, currency });
    file.newestFirst = file.rows.length > 1 && file.rows[0]!.date > file.rows[file.rows.length - 1]!.date;
  } else {
    file.newestFirst =
      file.balances.length > 1 && file.balances[1]!.afterIndex === file.rows[file.rows.length - 1]!.index && file.rows.length > 1;
  }
  return file;
}

/**
 * A running-balance column as balance points. Exports run oldest-first or newest-first: the direction under which
 * more rows agree with their neighbour is the file's; the points are then stated in that order.
 */
function runningBalancePoints(rows: readonly ParsedRow[]): BalancePoint[] {
  const withBalance = rows.filter((r) => r.balanceAfterMinor !== null);
  if (withBalance.length === 0 || withBalance.length !== rows.length) return [];
  let forward = 0;
  let backward = 0;
  for (let i = 1; i < rows.length; i++) {
    const prev = rows[i - 1]!;
    const cur = rows[i]!;
    if (prev.balanceAfterMinor! + cur.amountMinor === cur.balanceAfterMinor) forward++;
    if (cur.balanceAfterMinor! + prev.amountMinor === prev.balanceAfterMinor) backward++;
  }
  const points: BalancePoint[] = [];
  if (backward > forward) {
    // Newest first: row i's balance is the balance after it, and the rows below it come before it in time.
    const last = rows[rows.length - 1]!;
    points.push({
      kind: 'opening',
      afterIndex: -1,
      date: last.date,
      amountMinor: last.balanceAfterMinor! - last.amountMinor,
      line: last.line,
    });
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i]!;
      points.push({
        kind: i === 0 ? 'closing' : 'intermediate',
        afterIndex: r.index,
        date: r.date,
        amountMinor: r.balanceAfterMinor!,
        line: r.line,
      });
    }
    return points;
  }
  const first = rows[0]!;
  points.push({
    kind: 'opening',
    afterIndex: -1,
    date: first.date,
    amountMinor: first.balanceAfterMinor! - first.amountMinor,
    line: first.line,
  });
  rows.forEach((r, i) => {
    points.push({
      kind: i === rows.length - 1 ? 'closing' : 'intermediate',
      afterIndex: r.index,
      date: r.date,
      amountMinor: r.balanceAfterMinor!,
      line: r.line,
    });
  });
  return points;
}
