import { parseAmount } from '../../../src-shared/domain/import/amounts';
import {
  type BalancePoint,
  emptyFile,
  linesOf,
  nameFrom,
  type ParsedFile,
  type ParsedRow,
} from '../../../src-shared/domain/import/types';
import { isCurrencyCode } from '../../../src-shared/money';
import type { TextEncoding } from '../encoding';
import { readOfxMarkup } from './ofx-markup';

/**
 * OFX / QFX statements, 1.x (SGML, unclosed leaf tags) and 2.x (XML), read by ofx-markup.ts in one linear pass
 * (docs/decisions/0060, 0171): it closes the SGML leaves and returns every value as a string, so amounts stay exact. This module
 * takes the bank and credit-card statements out of the tree: STMTTRN → rows (FITID as the bank id, DTPOSTED as the
 * booking day, TRNAMT signed), LEDGERBAL → the closing balance as of DTASOF. OFX states no opening balance.
 */

type Node = Record<string, unknown>;

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** OFX date-time (YYYYMMDD[HHMMSS[.XXX]][[±h:TZ]]) → YYYY-MM-DD, the day as the bank wrote it. */
export function ofxDay(v: unknown): string | null {
  const s = str(v);
  const m = s ? /^(\d{4})(\d{2})(\d{2})/.exec(s) : null;
  if (!m) return null;
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** The statements of the file: bank (BANKMSGSRSV1) and credit card (CREDITCARDMSGSRSV1). */
function statements(ofx: Node): { rs: Node; account: string | null }[] {
  const out: { rs: Node; account: string | null }[] = [];
  const bank = ofx.BANKMSGSRSV1 as Node | undefined;
  for (const trnrs of asArray(bank?.STMTTRNRS as Node | Node[] | undefined)) {
    for (const rs of asArray(trnrs.STMTRS as Node | Node[] | undefined)) {
      const from = rs.BANKACCTFROM as Node | undefined;
      out.push({ rs, account: str(from?.ACCTID) });
    }
  }
  const card = ofx.CREDITCARDMSGSRSV1 as Node | undefined;
  for (const trnrs of asArray(card?.CCSTMTTRNRS as Node | Node[] | undefined)) {
    for (const rs of asArray(trnrs.CCSTMTRS as Node | Node[] | undefined)) {
      const from = rs.CCACCTFROM as Node | undefined;
      out.push({ rs, account: str(from?.ACCTID) });
    }
  }
  return out;
}

interface Placed {
  rs: Node;
  account: string | null;
  /** Position (document order) of the statement's first transaction among all the file's transactions. */
  first: number;
}

/** The statements of an OFX file: one per account it holds (a file may carry several, bank and card). */
export function parseOfx(text: string, encoding: TextEncoding, accountCurrency: string): ParsedFile[] {
  const refuse = (message: string) => {
    const file = emptyFile('ofx', encoding, null);
    file.errors.push({ line: null, row: null, field: null, message });
    return [file];
  };
  let ofx: Node;
  try {
    ofx = readOfxMarkup(text) as Node;
  } catch (err) {
    return refuse(`Not a readable OFX file: ${(err as Error).message}`);
  }
  const stmts = statements(ofx);
  if (stmts.length === 0) return refuse('The OFX file holds no bank or credit card statement');
  // Line numbers: the n-th <STMTTRN> in the text is the n-th transaction of the tree (document order).
  const offsets: number[] = [];
  const re = /<STMTTRN>/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) offsets.push(m.index);
  const lines = linesOf(text, offsets);
  let n = 0;
  const groups = new Map<string | null, Placed[]>();
  for (const s of stmts) {
    const placed = { ...s, first: n };
    n += asArray(((s.rs.BANKTRANLIST ?? {}) as Node).STMTTRN as Node | Node[] | undefined).length;
    groups.set(s.account, [...(groups.get(s.account) ?? []), placed]);
  }
  return [...groups].map(([account, group]) => readAccount(group, account, lines, encoding, accountCurrency));
}

/** One account's statements of the file as one ParsedFile. */
function readAccount(
  stmts: readonly Placed[],
  account: string | null,
  lines: readonly number[],
  encoding: TextEncoding,
  accountCurrency: string,
): ParsedFile {
  const file = emptyFile('ofx', encoding, account);
  for (const { rs, first } of stmts) {
    let n = first;
    const currency = str(rs.CURDEF)?.toUpperCase() ?? accountCurrency;
    if (!isCurrencyCode(currency)) {
      file.errors.push({ line: lines[n] ?? null, row: null, field: 'CURDEF', message: `"${currency}" is not a currency code` });
      continue;
    }
    file.currency ??= currency;
    const list = (rs.BANKTRANLIST ?? {}) as Node;
    for (const t of asArray(list.STMTTRN as Node | Node[] | undefined)) {
      const line = lines[n++] ?? null;
      const index = file.rows.length + file.rejected.length;
      const date = ofxDay(t.DTPOSTED);
      if (!date) {
        file.errors.push({ line, row: index, field: 'DTPOSTED', message: `"${String(t.DTPOSTED ?? '')}" is not an OFX date` });
        continue;
      }
      const amountText = str(t.TRNAMT) ?? '';
      // The specification's decimal point; some European banks write a comma.
      const amountMinor = parseAmount(
        amountText,
        { decimal: amountText.includes(',') && !amountText.includes('.') ? ',' : '.' },
        currency,
      );
      if (amountMinor === null) {
        file.errors.push({ line, row: index, field: 'TRNAMT', message: `"${amountText}" is not an amount in ${currency}` });
        continue;
      }
      const payee = t.PAYEE as Node | undefined;
      const name = str(t.NAME) ?? str(payee?.NAME);
      const memo = str(t.MEMO);
      const fitid = str(t.FITID);
      const row: ParsedRow = {
        index,
        line: line ?? 0,
        date,
        valueDate: ofxDay(t.DTAVAIL),
        amountMinor,
        currency,
        name: nameFrom(name, memo),
        description: memo ?? name,
        counterparty: name,
        externalId: fitid ? `fitid:${fitid}` : null,
        status: 'posted',
        balanceAfterMinor: null,
        details: Object.fromEntries(
          Object.entries({ trnType: str(t.TRNTYPE), checkNum: str(t.CHECKNUM), refNum: str(t.REFNUM), sic: str(t.SIC) }).filter(
            ([, v]) => v !== null,
          ),
        ),
      };
      if (currency !== accountCurrency) {
        file.rejected.push({
          line,
          row: index,
          field: 'CURDEF',
          message: `in ${currency}, but the account holds ${accountCurrency}`,
        });
        continue;
      }
      file.rows.push(row);
    }
  }
  // LEDGERBAL is the balance as of DTASOF: the closing balance of the last statement.
  const last = stmts[stmts.length - 1]!.rs;
  const ledger = last.LEDGERBAL as Node | undefined;
  const balAmount = str(ledger?.BALAMT);
  if (balAmount) {
    const currency = str(last.CURDEF)?.toUpperCase() ?? accountCurrency;
    const minor = !isCurrencyCode(currency)
      ? null
      : parseAmount(balAmount, { decimal: balAmount.includes(',') && !balAmount.includes('.') ? ',' : '.' }, currency);
    const asOf = ofxDay(ledger?.DTASOF);
    if (minor !== null) {
      // Rows dated after DTASOF are not in it; the closing point sits after the last row on or before that day.
      const covered = file.rows.filter((r) => !asOf || r.date <= asOf);
      const point: BalancePoint = {
        kind: 'closing',
        afterIndex: covered.length ? covered[covered.length - 1]!.index : -1,
        date: asOf,
        amountMinor: minor,
        line: null,
      };
      file.balances.push(point);
    }
  }
  return file;
}
