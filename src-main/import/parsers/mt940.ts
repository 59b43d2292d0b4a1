import { parseAmount } from '../../../src-shared/domain/import/amounts';
import { emptyFile, nameFrom, type ParsedFile, type ParsedRow, type Problem } from '../../../src-shared/domain/import/types';
import { isCurrencyCode } from '../../../src-shared/money';
import type { TextEncoding } from '../encoding';

/**
 * SWIFT MT940 customer statements, read by hand (docs/decisions/0060 says why no library: the maintained-looking
 * ones round amounts through floats to two decimals, take the entry date's year from the value date across a new
 * year, and throw on a balance mismatch instead of letting us name the row). The message is a list of tags (`:20:`,
 * `:25:`, `:28C:`, `:60F:`/`:60M:`, `:61:`, `:86:`, `:NS:`, `:62F:`/`:62M:`, `:64:`, `:65:`), each running until the next
 * tag line; an optional SWIFT envelope (`{1:…}{2:…}{4:` … `-}`) and the transmission characters around a message
 * (SOH … ETX) are ignored. `:86:` is kept as text (several :86: fields of one line are one text), its German
 * structured form (`GVC?00…?20…?32…`) and its `/CODE/value` form read into name and purpose; a bank's `:NS:` fields
 * are kept in the row's details. Every rule runs on one line of the format's capped length (docs/decisions/0171):
 * reading a file is linear in its size.
 */

interface Tag {
  tag: string;
  lines: string[];
  line: number;
}

/**
 * Lines a bank writes outside the fields, before a statement: its BIC ("ABNANL2A"), the message type ("940",
 * "940 00", ":940:"), an ING file header ("0000 01INGBNL2AXXXX00001").
 */
const SWIFT_HEADER = [/^:?940:?( \d{2})?$/, /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, /^\d{4} \d{2}[A-Z0-9]{8,20}$/];
const TAG = /^:(\d{2}[A-Z]?|NS):(.*)$/;

/**
 * The format's line caps (docs/decisions/0171): a line of a field holds at most 65 characters after its tag; a :86:
 * field at most 6 × 65 characters in all, however the bank breaks it into lines (banks write it on one line as
 * often as on six); a :61: line at most two lines' worth, since banks stretch its references (an IBAN as the
 * customer reference) past the standard's 66. A longer line is refused before anything else reads it, so no rule
 * below ever sees more than MAX_LINE characters.
 */
export const LINE_CHARS = 65;
export const FIELD_86_CHARS = 6 * LINE_CHARS;
const LINE_61_CHARS = 2 * LINE_CHARS;
const MAX_LINE = FIELD_86_CHARS + ':86:'.length;

/** SWIFT's transmission control characters (SOH, STX, ETX, EOT) some banks leave around each message. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it removes.
const CONTROLS = /[\x01-\x04]/g;

/**
 * A line without the SWIFT envelope it may start with: the header blocks `{1:…}{2:…}{3:{108:…}}` and the opening of
 * the text block `{4:`, read by counting braces (a block that does not close leaves the line as it was, to be
 * refused as text outside any field). One pass over the line.
 */
export function withoutEnvelope(line: string): string {
  let pos = 0;
  while (line.startsWith('{', pos)) {
    const id = line[pos + 1];
    if (line[pos + 2] !== ':') break;
    if (id === '4') return line.slice(pos + 3);
    if (id !== '1' && id !== '2' && id !== '3') break;
    let depth = 0;
    let end = -1;
    for (let i = pos; i < line.length; i++) {
      const c = line[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) break;
    pos = end + 1;
  }
  return line.slice(pos);
}

const number = (n: number) => n.toLocaleString('en');

function tags(text: string): { tags: Tag[]; errors: Problem[] } {
  const out: Tag[] = [];
  const errors: Problem[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  // Between the end of one statement ("-") and the first field of the next, only header lines and blank lines.
  let inField = false;
  const tooLong = (i: number, message: string) => errors.push({ line: i + 1, row: null, field: null, message });
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.length > MAX_LINE) {
      tooLong(
        i,
        `the line has ${number(raw.length)} characters; an MT940 line has at most ${LINE_CHARS} (a :86: field ${FIELD_86_CHARS})`,
      );
      inField = false;
      continue;
    }
    // Envelope blocks, control characters and the end-of-message marker.
    let l = withoutEnvelope(raw.replace(CONTROLS, ''));
    if (/^-[}A-Z]*\s*$/.test(l) || l.startsWith('{5:')) {
      inField = false;
      continue;
    }
    // A field tag the bank split over two lines (":" then "86:…").
    if (/^:[0-9A-Z]{0,3}$/.test(l) && i + 1 < lines.length && lines[i + 1]!.length <= MAX_LINE && TAG.test(l + lines[i + 1]!)) {
      l += lines[++i]!;
    }
    const m = TAG.exec(l);
    if (m) {
      out.push({ tag: m[1]!, lines: [m[2]!], line: i + 1 });
      inField = true;
    } else if (inField) {
      out[out.length - 1]!.lines.push(l);
    } else if (l.trim() !== '' && !SWIFT_HEADER.some((re) => re.test(l.trim()))) {
      errors.push({ line: i + 1, row: null, field: null, message: `"${l.slice(0, 40)}" is outside any MT940 field` });
    }
  }
  // Trailing blank lines belong to no field.
  for (const t of out) while (t.lines.length > 1 && t.lines[t.lines.length - 1]!.trim() === '') t.lines.pop();
  for (const t of out) {
    if (t.tag === '86') {
      const chars = t.lines.reduce((n, l) => n + l.length, 0);
      if (chars > FIELD_86_CHARS) {
        errors.push({
          line: t.line,
          row: null,
          field: '86',
          message: `the :86: field has ${number(chars)} characters; MT940 allows at most 6 × ${LINE_CHARS} = ${FIELD_86_CHARS}`,
        });
        t.lines = [''];
      }
      continue;
    }
    const cap = t.tag === '61' ? LINE_61_CHARS : LINE_CHARS;
    t.lines.forEach((l, k) => {
      if (l.length <= cap) return;
      errors.push({
        line: t.line + k,
        row: null,
        field: t.tag,
        message: `a line of the :${t.tag}: field has ${number(l.length)} characters; MT940 allows at most ${cap}`,
      });
      t.lines[k] = '';
    });
  }
  return { tags: out, errors };
}

const yymmdd = (s: string): string | null => {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return null;
  const y = 2000 + Number(m[1]);
  const date = new Date(Date.UTC(y, Number(m[2]) - 1, Number(m[3])));
  if (date.getUTCMonth() !== Number(m[2]) - 1) return null;
  return `${y}-${m[2]}-${m[3]}`;
};

/** The entry (booking) date MMDD of a :61: line, in the year that puts it nearest the value date. */
function entryDate(valueDate: string, mmdd: string): string | null {
  const vy = Number(valueDate.slice(0, 4));
  const vm = Number(valueDate.slice(5, 7));
  const em = Number(mmdd.slice(0, 2));
  let y = vy;
  if (vm === 12 && em === 1) y = vy + 1;
  if (vm === 1 && em === 12) y = vy - 1;
  return yymmdd(`${String(y % 100).padStart(2, '0')}${mmdd}`);
}

/** Joins the physical lines of a field: a line of the full 65 characters was hard-wrapped mid-word. */
function joinWrapped(lines: readonly string[]): string {
  let out = '';
  lines.forEach((l, i) => {
    // The first line shares its 65 characters with the ":86:" tag.
    const previous = i === 1 ? lines[0]!.length + 4 : (lines[i - 1]?.length ?? 0);
    if (i === 0) out = l;
    else out += previous >= 65 ? l : ` ${l}`;
  });
  return out.replace(/\s+/g, ' ').trim();
}

interface Info {
  text: string;
  name: string | null;
  purpose: string | null;
  details: Record<string, string>;
}

/** :86: in its structured forms, else free text. */
export function parseField86(lines: readonly string[]): Info {
  const raw = lines.join('');
  const german = /^(\d{3})\?/.exec(raw);
  if (german) {
    const fields = new Map<string, string>();
    for (const m of raw.slice(3).matchAll(/\?(\d{2})([^?]*)/g)) fields.set(m[1]!, (fields.get(m[1]!) ?? '') + m[2]!);
    const purpose = [...Array.from({ length: 10 }, (_, i) => `2${i}`), '60', '61', '62', '63']
      .map((k) => fields.get(k) ?? '')
      .join('')
      .trim();
    const name = `${fields.get('32') ?? ''}${fields.get('33') ?? ''}`.trim() || null;
    const details: Record<string, string> = { gvc: german[1]! };
    // SEPA keywords inside the purpose: SVWZ+ is the remittance text, EREF+ the end-to-end id, MREF+ the mandate.
    const sepa = new Map<string, string>();
    for (const m of purpose.matchAll(
      /(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC)\+(.*?)(?=(?:EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC)\+|$)/g,
    )) {
      sepa.set(m[1]!, m[2]!.trim());
    }
    if (sepa.get('EREF') && sepa.get('EREF') !== 'NOTPROVIDED') details.EREF = sepa.get('EREF')!;
    if (sepa.get('MREF')) details.mandate = sepa.get('MREF')!;
    const remittance = sepa.size > 0 ? (sepa.get('SVWZ') ?? null) : purpose || null;
    if (fields.get('00')) details.postingText = fields.get('00')!.trim();
    if (fields.get('30')) details.counterpartyBank = fields.get('30')!.trim();
    if (fields.get('31')) details.counterpartyAccount = fields.get('31')!.trim();
    const text = [fields.get('00')?.trim(), remittance].filter(Boolean).join(' ');
    return { text, name, purpose: remittance, details };
  }
  if (/^\/[A-Z]{2,4}\//.test(raw)) {
    // Values lose the slashes around them; ING writes the counterparty as /CNTP/account/BIC/name/ and the remittance
    // as /REMI/USTD//text/.
    const parts = new Map<string, string>();
    for (const m of raw.matchAll(/\/([A-Z]{2,4})\/(.*?)(?=\/[A-Z]{2,4}\/|$)/g)) {
      const value = m[2]!
        .replace(/^(USTD|STRD)\/+/, '')
        .replace(/^\/+|\/+$/g, '')
        .trim();
      if (value) parts.set(m[1]!, value);
    }
    const name = parts.get('NAME') ?? parts.get('CNTP')?.split('/')[2]?.trim() ?? null;
    const purpose = parts.get('REMI') ?? parts.get('USTD') ?? null;
    const details = Object.fromEntries([...parts].filter(([k]) => ['EREF', 'MARF', 'CSID', 'IBAN', 'BIC', 'TRTP'].includes(k)));
    return { text: [name, purpose].filter(Boolean).join(' ') || joinWrapped(lines), name, purpose, details };
  }
  return { text: joinWrapped(lines), name: null, purpose: null, details: {} };
}

function balance(value: string, currencyHint: string): { minor: number; date: string; currency: string } | null {
  const m = /^([DC])(\d{6})([A-Z]{3})(\d[\d,]*)$/.exec(value.trim());
  if (!m || !isCurrencyCode(m[3]!)) return null;
  const date = yymmdd(m[2]!);
  const amount = parseAmount(m[4]!.replace(/,$/, ''), { decimal: ',' }, m[3] ?? currencyHint);
  if (!date || amount === null) return null;
  return { minor: m[1] === 'D' ? -amount : amount, date, currency: m[3]! };
}

/**
 * A :61: statement line: value date, entry date (four spaces where a bank leaves it out), debit/credit mark (R for a
 * reversal), the funds code some banks write after it ("DF2402,00"), amount, transaction type ("NMSC", "NOVB"; "S"
 * and three spaces where a bank names no SWIFT message type, as Sberbank Hungary writes them), customer reference
 * (banks write longer ones than the standard's 16 characters, such as an IBAN) and the bank's reference after "//".
 * The type's letter and three characters are those the Python mt940 package reads (`[A-Z][A-Z0-9 ]{3}`).
 */
const LINE_61 = /^(\d{6})(\d{4}| {4})?(R?[DC])([A-Z])?(\d[\d,]{0,15})([NFS][A-Z0-9 ]{3})(.*?)(?:\/\/(.*))?$/;

/**
 * A bank's non-SWIFT field (:NS:) after a statement line: one subfield a line, a two-digit code then its text (the
 * Python mt940 package reads it so). Its text stands in for the description when the line has no :86:.
 */
function nonSwift(lines: readonly string[]): { fields: Record<string, string>; text: string } {
  const fields: Record<string, string> = {};
  const text: string[] = [];
  for (const line of lines) {
    const m = /^(\d{2})(.+)$/.exec(line);
    const value = (m ? m[2]! : line).trim();
    if (m) fields[m[1]!] = fields[m[1]!] ? `${fields[m[1]!]} ${value}` : value;
    if (value) text.push(value);
  }
  return { fields, text: text.join(' ') };
}

/** The :61: line, when the bank wrapped it onto the next line ("CR" then "30,00N062NONREF"): joined back. */
function statementLine(lines: readonly string[]): { match: RegExpExecArray; rest: string[] } | null {
  const first = lines[0]!.trim();
  const whole = LINE_61.exec(first);
  if (whole) return { match: whole, rest: lines.slice(1) };
  const joined = lines.length > 1 ? LINE_61.exec(first + lines[1]!.trim()) : null;
  return joined ? { match: joined, rest: lines.slice(2) } : null;
}

/**
 * The text of each account's statements: a file may hold statements of several accounts (an export of all accounts).
 * A statement runs from its :20: to the next one; it belongs to the account its :25: names. Each account's text keeps
 * every line where it was (the other accounts' lines blanked), so problems name the file's own lines.
 */
function byAccount(text: string): string[] {
  const lines = text.split(/\r\n|\n|\r/);
  // The first statement takes the header lines above its :20:.
  const spans: { start: number; account: string | null; opened: boolean }[] = [{ start: 0, account: null, opened: false }];
  lines.forEach((raw, i) => {
    if (raw.length > MAX_LINE) return;
    const l = withoutEnvelope(raw.replace(CONTROLS, ''));
    if (l.startsWith(':20:')) {
      if (spans[spans.length - 1]!.opened) spans.push({ start: i, account: null, opened: true });
      else spans[spans.length - 1]!.opened = true;
    }
    const account = /^:25:(.*)$/.exec(l)?.[1]?.trim();
    if (account) spans[spans.length - 1]!.account ??= account;
  });
  const accounts = [...new Set(spans.map((s) => s.account))];
  if (accounts.length <= 1) return [text];
  const owner = new Array<string | null>(lines.length);
  spans.forEach((s, k) => {
    const end = spans[k + 1]?.start ?? lines.length;
    for (let i = s.start; i < end; i++) owner[i] = s.account;
  });
  return accounts.map((a) => lines.map((l, i) => (owner[i] === a ? l : '')).join('\n'));
}

/** The statements of an MT940 file: one per account it holds. */
export function parseMt940(text: string, encoding: TextEncoding, accountCurrency: string): ParsedFile[] {
  return byAccount(text).map((part) => readStatements(part, encoding, accountCurrency));
}

function readStatements(text: string, encoding: TextEncoding, accountCurrency: string): ParsedFile {
  const file = emptyFile('mt940', encoding);
  const parsed = tags(text);
  file.errors.push(...parsed.errors);
  const accounts = new Set<string>();
  let pending: ParsedRow | null = null;
  let pendingInfo: string[] | null = null;
  let pendingNs: string[] | null = null;
  let statementCurrency = accountCurrency;
  const lastIndex = () => (file.rows.length ? file.rows[file.rows.length - 1]!.index : -1);
  // An opening (60F/60M) or closing (62F/62M) balance; an unreadable one is an error of the file, not a row's.
  const readBalance = (tag: string, line: number, value: string) => {
    const b = balance(value, accountCurrency);
    if (!b) file.errors.push({ line, row: null, field: tag, message: `"${value}" is not a balance ([DC]YYMMDD CCY amount)` });
    return b;
  };

  const flush = () => {
    if (!pending) return;
    if (pendingNs) {
      const ns = nonSwift(pendingNs);
      pending.details.nonSwift = ns.fields;
      if (!pendingInfo && ns.text) {
        pending.description = ns.text;
        pending.name = nameFrom(ns.text, pending.name);
      }
    }
    if (pendingInfo) {
      const info = parseField86(pendingInfo);
      pending.description = info.purpose ?? (info.text || pending.description);
      pending.counterparty = info.name;
      pending.name = nameFrom(info.name, info.purpose, info.text, pending.description);
      Object.assign(pending.details, info.details);
      if (info.details.EREF && info.details.EREF !== 'NOTPROVIDED' && !pending.externalId) {
        pending.externalId = `e2e:${info.details.EREF}:${pending.date}:${pending.amountMinor}`;
      }
    }
    if (pending.currency !== accountCurrency) {
      file.rejected.push({
        line: pending.line,
        row: pending.index,
        field: '61',
        message: `in ${pending.currency}, but the account holds ${accountCurrency}`,
      });
    } else {
      file.rows.push(pending);
    }
    pending = null;
    pendingInfo = null;
    pendingNs = null;
  };

  for (const t of parsed.tags) {
    const value = t.lines[0]!.trim();
    switch (t.tag) {
      case '20':
        flush();
        break;
      case '25':
        accounts.add(value);
        break;
      case '60F':
      case '60M': {
        flush();
        const b = readBalance(t.tag, t.line, value);
        if (!b) break;
        statementCurrency = b.currency;
        file.currency ??= b.currency;
        // A 60M opens the next page of the same statement: the balance carried over, checked like any other point.
        file.balances.push({ kind: 'opening', afterIndex: lastIndex(), date: b.date, amountMinor: b.minor, line: t.line });
        break;
      }
      case '61': {
        flush();
        const index = file.rows.length + file.rejected.length;
        const found = statementLine(t.lines);
        const m = found?.match;
        const valueDate = m ? yymmdd(m[1]!) : null;
        if (!m || !valueDate) {
          file.errors.push({ line: t.line, row: index, field: '61', message: `"${value}" is not a statement line (:61:)` });
          break;
        }
        const booked = m[2]?.trim() ? entryDate(valueDate, m[2]) : valueDate;
        const amount = parseAmount(m[5]!.replace(/,$/, ''), { decimal: ',' }, statementCurrency);
        if (!booked || amount === null) {
          file.errors.push({ line: t.line, row: index, field: '61', message: `"${value}": unreadable entry date or amount` });
          break;
        }
        // RD/RC reverse a debit or credit: a reversed debit puts money back.
        const mark = m[3]!;
        const credit = mark === 'C' || mark === 'RD';
        const amountMinor = credit ? amount : -amount;
        const customerRef = m[7]?.trim() || null;
        const bankRef = m[8]?.trim() || null;
        const supplementary = found!.rest.join(' ').trim() || null;
        const ref = bankRef && bankRef.toUpperCase() !== 'NONREF' ? bankRef : null;
        pending = {
          index,
          line: t.line,
          date: booked,
          valueDate,
          amountMinor,
          currency: statementCurrency,
          name: nameFrom(supplementary, customerRef),
          description: supplementary,
          counterparty: null,
          externalId: ref ? `mt940:${booked}:${amountMinor}:${ref}` : null,
          status: 'posted',
          balanceAfterMinor: null,
          details: Object.fromEntries(
            Object.entries({
              transactionType: m[6]!.trim(),
              customerReference: customerRef && customerRef.toUpperCase() !== 'NONREF' ? customerRef : null,
              bankReference: bankRef,
              reversal: mark.startsWith('R') ? 'true' : null,
            }).filter(([, v]) => v !== null),
          ),
        };
        break;
      }
      case '86':
        // Rabobank writes a transaction's details as several :86: fields: they are one text.
        if (pending) pendingInfo = pendingInfo ? [...pendingInfo, ...t.lines] : t.lines;
        break;
      case 'NS':
        // Before the first statement line it describes the account (Sberbank's owner, period): not a row's.
        if (pending) pendingNs = pendingNs ? [...pendingNs, ...t.lines] : t.lines;
        break;
      case '62F':
      case '62M': {
        flush();
        const b = readBalance(t.tag, t.line, value);
        if (!b) break;
        file.balances.push({ kind: 'closing', afterIndex: lastIndex(), date: b.date, amountMinor: b.minor, line: t.line });
        break;
      }
      default:
        flush();
    }
  }
  flush();
  file.accountRef = [...accounts][0] ?? null;
  if (parsed.tags.length === 0)
    file.errors.push({ line: 1, row: null, field: null, message: 'No MT940 fields (:20:, :61:…) found' });
  return file;
}
