import { inferDecimal, parseAmount } from '../../../src-shared/domain/import/amounts';
import { type DateFormat, inferDateFormat, parseDate } from '../../../src-shared/domain/import/dates';
import { emptyFile, nameFrom, type ParsedFile, type ParsedRow, type Problem } from '../../../src-shared/domain/import/types';
import type { TextEncoding } from '../encoding';
import { MAX_RECORD_CHARS } from './limits';

/**
 * QIF, the Quicken Interchange Format (docs/decisions/0069): still exported by banks and by Quicken, GnuCash,
 * Actual and Firefly III users moving their books. A file is sections (`!Type:Bank`, `!Type:CCard`, `!Type:Cash`,
 * `!Type:Oth A`, `!Type:Oth L`) of records, one field a line by its first letter — D date, T (or U) amount, P payee,
 * M memo, N number, C cleared, L category, S/E/$ split lines, A address — each record ending with `^`. An
 * `!Account` block names the account the following sections belong to (a GnuCash or Quicken export of every
 * account): each account is a statement of its own. Lists (`!Type:Cat`, `!Type:Class`, `!Type:Memorized`…) are
 * not transactions and are skipped; investment sections (`!Type:Invst`) are left out with a warning.
 *
 * QIF states no currency, no balance and no bank id: rows are in the account's currency and deduplicated by their
 * fingerprint. Dates come as `03/15/2026`, `3/15'26` (Quicken: an apostrophe before a year of the 2000s),
 * `15.03.2026` or `2026-03-15`; the day/month order and the decimal separator are decided from the whole file, as
 * for CSV.
 */

const CASH_TYPES = new Set(['bank', 'cash', 'ccard', 'oth a', 'oth l']);

interface QifRecord {
  line: number;
  fields: { code: string; value: string; line: number }[];
}

interface Section {
  account: string | null;
  records: QifRecord[];
}

/** "3/15'26" → "3/15/26", " 3/ 5/2026" → "3/5/2026": the date as the common formats read it. */
const qifDate = (v: string) => v.replace(/'\s*/g, '/').replace(/\s+/g, '');

function sections(text: string, errors: Problem[], warnings: string[]): Section[] {
  const out: Section[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  let account: string | null = null;
  let mode: 'cash' | 'account' | 'skip' | null = null;
  let current: QifRecord | null = null;
  let section: Section | null = null;
  let pendingAccount: string | null = null;
  lines.forEach((raw, i) => {
    const line = raw.replace(/^\uFEFF/, '');
    if (line.length > MAX_RECORD_CHARS) {
      errors.push({
        line: i + 1,
        row: null,
        field: null,
        message: `the line has ${line.length.toLocaleString('en')} characters; a QIF field has at most ${MAX_RECORD_CHARS.toLocaleString('en')}`,
      });
      return;
    }
    if (line.trim() === '') return;
    if (line.startsWith('!')) {
      const header = line.slice(1).trim().toLowerCase();
      current = null;
      if (header === 'account') {
        mode = 'account';
        pendingAccount = null;
      } else if (header.startsWith('type:')) {
        const type = header.slice(5).trim();
        if (CASH_TYPES.has(type)) {
          mode = 'cash';
          section = { account, records: [] };
          out.push(section);
        } else {
          mode = 'skip';
          if (type === 'invst') {
            warnings.push(`line ${i + 1}: an investment account section (!Type:Invst) was left out`);
          }
        }
      } else {
        // !Option:AutoSwitch, !Clear:AutoSwitch and other switches.
        mode = mode === 'account' ? 'account' : 'skip';
      }
      return;
    }
    if (mode === 'account') {
      if (line[0] === 'N') pendingAccount = line.slice(1).trim() || null;
      if (line[0] === '^') account = pendingAccount;
      return;
    }
    if (mode === 'skip') return;
    if (mode === null) {
      errors.push({ line: i + 1, row: null, field: null, message: `"${line.slice(0, 40)}" comes before any !Type line` });
      mode = 'skip';
      return;
    }
    if (line[0] === '^') {
      current = null;
      return;
    }
    if (!current) {
      current = { line: i + 1, fields: [] };
      section!.records.push(current);
    }
    (current as QifRecord).fields.push({ code: line[0]!, value: line.slice(1).trim(), line: i + 1 });
  });
  return out;
}

/** The statements of a QIF file: one per account it names (one when it names none). */
export function parseQif(text: string, encoding: TextEncoding, accountCurrency: string): ParsedFile[] {
  const errors: Problem[] = [];
  const warnings: string[] = [];
  const found = sections(text, errors, warnings);
  // Sections of one account (a bank section and its card section are two accounts; two sections of one name, one).
  const byAccount = new Map<string | null, QifRecord[]>();
  for (const s of found) byAccount.set(s.account, [...(byAccount.get(s.account) ?? []), ...s.records]);
  const all = [...byAccount.values()].flat();
  const field = (r: QifRecord, code: string) => r.fields.find((f) => f.code === code);
  const dates = inferDateFormat(
    all.map((r) => qifDate(field(r, 'D')?.value ?? '')),
    0.8,
  );
  const { decimal } = inferDecimal(all.map((r) => (field(r, 'T') ?? field(r, 'U'))?.value ?? ''));
  const notes = dates?.ambiguous ? [`dates read as ${dates.format}; ${dates.alternatives.join(', ')} would also fit: check`] : [];

  const files: ParsedFile[] = [];
  for (const [account, records] of byAccount) {
    const file = emptyFile('qif', encoding, account);
    file.currency = accountCurrency;
    file.warnings.push(...notes);
    for (const r of records) {
      const index = file.rows.length + file.rejected.length;
      const problem = (f: string, message: string, line = r.line) => file.errors.push({ line, row: index, field: f, message });
      const d = field(r, 'D');
      const t = field(r, 'T') ?? field(r, 'U');
      if (!d) {
        problem('D', 'the record has no date (D line)');
        continue;
      }
      if (!t) {
        problem('T', 'the record has no amount (T line)');
        continue;
      }
      const date = dates ? parseDate(qifDate(d.value), dates.format as DateFormat) : null;
      if (!date) {
        problem('D', `"${d.value}" is not a date${dates ? ` in the format ${dates.format}` : ''}`, d.line);
        continue;
      }
      const amountMinor = parseAmount(t.value, { decimal }, accountCurrency);
      if (amountMinor === null) {
        problem('T', `"${t.value}" is not an amount (decimal separator "${decimal}")`, t.line);
        continue;
      }
      const payee = field(r, 'P')?.value || null;
      const memo = field(r, 'M')?.value || null;
      const category = field(r, 'L')?.value || null;
      const splits = r.fields
        .filter((f) => f.code === 'S')
        .map((s, i) => ({
          category: s.value,
          memo: r.fields.filter((f) => f.code === 'E')[i]?.value ?? null,
          amount: r.fields.filter((f) => f.code === '$')[i]?.value ?? null,
        }));
      const details: Record<string, unknown> = {};
      if (field(r, 'N')?.value) details.number = field(r, 'N')!.value;
      if (field(r, 'C')?.value) details.cleared = field(r, 'C')!.value;
      if (category) details.category = category;
      if (splits.length) details.splits = splits;
      // Quicken opens an account with a record naming the account itself as its category: a balance, not a payment.
      if (payee?.toLowerCase() === 'opening balance' && category?.startsWith('[')) {
        file.rejected.push({ line: r.line, row: index, field: 'P', message: 'the opening balance record, not a transaction' });
        continue;
      }
      const row: ParsedRow = {
        index,
        line: r.line,
        date,
        valueDate: null,
        amountMinor,
        currency: accountCurrency,
        name: nameFrom(payee, memo),
        description: memo ?? payee,
        counterparty: payee,
        externalId: null,
        status: 'posted',
        balanceAfterMinor: null,
        details,
      };
      file.rows.push(row);
    }
    files.push(file);
  }
  if (files.length === 0) files.push(emptyFile('qif', encoding, null));
  files[0]!.errors.unshift(...errors);
  files[0]!.warnings.push(...warnings);
  for (const f of files) {
    if (f.rows.length === 0 && f.rejected.length === 0 && f.errors.length === 0) {
      f.errors.push({ line: null, row: null, field: null, message: 'The QIF file holds no bank, cash or card transactions' });
    }
  }
  return files;
}
