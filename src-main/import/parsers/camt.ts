import { SaxesParser } from 'saxes';
import { formatMinor, parseAmount } from '../../../src-shared/domain/import/amounts';
import { type BalancePoint, emptyFile, nameFrom, type ParsedFile, type ParsedRow } from '../../../src-shared/domain/import/types';
import type { TextEncoding } from '../encoding';
import { MAX_RECORD_CHARS } from './limits';

/**
 * ISO 20022 cash-management statements: camt.053 (statement), camt.052 (intraday report) and camt.054 (debit/credit
 * notification), versions .001.02 to .001.13. The XML is read into plain objects (namespace prefixes removed, every
 * value kept as a string, so amounts stay exact); a malformed document is refused with its line.
 *
 * One entry (Ntry) is one row: the amount the bank booked. A batch entry (NtryDtls/Btch, several TxDtls) stays one
 * row whose description lists the parts, and its details keep each part's name, reference and amount; charges the
 * bank took (Chrgs) are kept in the details too (docs/decisions/0060). Booked entries (BOOK) are posted, pending ones
 * (PDNG) pending; information-only ones (INFO) are left out with the reason. Balances: OPBD/PRCD open a statement,
 * CLBD closes it.
 *
 * The XML is read by saxes (a streaming, well-formedness-checking parser that reports line and column) into plain
 * objects: fast-xml-parser 5, tried first, took 13–16 s for a 100,000-entry statement where saxes takes under 1 s
 * (docs/decisions/0060).
 */

type Node = Record<string, unknown>;

const MAX_DEPTH = 64;
const ARRAYS = new Set(['Stmt', 'Rpt', 'Ntfctn', 'Ntry', 'Bal', 'NtryDtls', 'TxDtls', 'Ustrd', 'Rcrd', 'Chrgs']);
/** The element's line, kept on the object (not an XML name, so it never collides). */
const LINE = '#line';

class XmlError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * XML → nested objects: an element is its text when it has neither attributes nor children, else an object with its
 * children by local name (namespace prefix dropped), its attributes as `@name` and its text as `#text`; the names in
 * ARRAYS are always arrays. Malformed XML throws an XmlError with the line.
 */
function readXml(content: string): Node {
  const parser = new SaxesParser({ position: true });
  const root: Node = {};
  const stack: { node: Node; name: string; text: string; children: boolean; attrs: boolean }[] = [
    { node: root, name: '', text: '', children: true, attrs: false },
  ];
  let failure: XmlError | null = null;
  const describe = (message: string) => {
    const open = stack[stack.length - 1]!.name;
    return `${message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.$/, '')} at column ${parser.column}${open ? ` (inside <${open}>)` : ''}`;
  };
  parser.on('error', (e) => {
    failure ??= new XmlError(parser.line, describe(e.message));
  });
  parser.on('opentag', (tag) => {
    // camt's deepest element is about 12 levels down: a document nested past MAX_DEPTH is not one.
    if (stack.length > MAX_DEPTH) throw new XmlError(parser.line, `elements nested deeper than ${MAX_DEPTH}`);
    const node: Node = { [LINE]: parser.line };
    let attrs = false;
    for (const [k, v] of Object.entries(tag.attributes)) {
      if (k.startsWith('xmlns')) continue;
      node[`@${k.replace(/^.*:/, '')}`] = v;
      attrs = true;
    }
    stack[stack.length - 1]!.children = true;
    stack.push({ node, name: tag.name.replace(/^.*:/, ''), text: '', children: false, attrs });
  });
  parser.on('text', (t) => {
    const open = stack[stack.length - 1]!;
    // The white space between an element's children is layout, not its text.
    if (open.children && !/\S/.test(t)) return;
    if (open.text.length + t.length > MAX_RECORD_CHARS) {
      failure ??= new XmlError(parser.line, `<${open.name}> holds more than ${MAX_RECORD_CHARS.toLocaleString('en')} characters`);
      return;
    }
    open.text += t;
  });
  parser.on('closetag', () => {
    const done = stack.pop()!;
    const parent = stack[stack.length - 1]!.node;
    const text = done.text.trim();
    let value: unknown = done.node;
    if (!done.children && !done.attrs) value = text;
    else if (text) done.node['#text'] = text;
    const existing = parent[done.name];
    if (ARRAYS.has(done.name)) {
      if (existing) (existing as unknown[]).push(value);
      else parent[done.name] = [value];
    } else if (existing === undefined) parent[done.name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else parent[done.name] = [existing, value];
  });
  try {
    parser.write(content).close();
  } catch (err) {
    failure ??= err instanceof XmlError ? err : new XmlError(parser.line, describe((err as Error).message));
  }
  if (failure) throw failure;
  return root;
}

const arr = (v: unknown): Node[] => (v === undefined || v === null ? [] : Array.isArray(v) ? (v as Node[]) : [v as Node]);
const node = (v: unknown): Node | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : undefined);
function text(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  const n = node(v);
  if (n && typeof n['#text'] === 'string') return (n['#text'] as string).trim() || null;
  return null;
}
const path = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((cur, k) => node(cur)?.[k], v);

function day(v: unknown): string | null {
  const s = text(path(v, 'Dt')) ?? text(path(v, 'DtTm'));
  const m = s ? /^(\d{4})-(\d{2})-(\d{2})/.exec(s) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** A party's name in either schema generation (Dbtr/Nm up to .07, Dbtr/Pty/Nm from .08). */
function partyName(p: unknown): string | null {
  return text(path(p, 'Nm')) ?? text(path(p, 'Pty', 'Nm'));
}

function amountOf(v: unknown, fallbackCurrency: string): { minor: number | null; currency: string; text: string } {
  const raw = text(v) ?? '';
  const currency = (node(v)?.['@Ccy'] as string | undefined)?.toUpperCase() ?? fallbackCurrency;
  let minor: number | null = null;
  try {
    minor = /^\d+(\.\d+)?$/.test(raw) ? parseAmount(raw, { decimal: '.' }, currency) : null;
  } catch {
    minor = null;
  }
  return { minor, currency, text: raw };
}

interface Tx {
  name: string | null;
  remittance: string | null;
  endToEndId: string | null;
  acctSvcrRef: string | null;
  amount: string | null;
  /** The part's amount element (with its currency) and its own direction, when it states one. */
  amountNode: unknown;
  indicator: string | null;
  line: number | null;
}

function txDetails(tx: Node, credit: boolean): Tx {
  const parties = path(tx, 'RltdPties');
  // Money in: the payer (Dbtr) is the counterparty; money out: the payee (Cdtr).
  const name = credit
    ? (partyName(path(parties, 'Dbtr')) ?? partyName(path(parties, 'UltmtDbtr')))
    : (partyName(path(parties, 'Cdtr')) ?? partyName(path(parties, 'UltmtCdtr')));
  const rmt = path(tx, 'RmtInf');
  const ustrd = arr(path(rmt, 'Ustrd'))
    .map((u) => text(u))
    .filter((s): s is string => !!s);
  const strd = text(path(rmt, 'Strd', 'CdtrRefInf', 'Ref'));
  const remittance = [...ustrd, ...(strd ? [strd] : [])].join(' ') || text(path(tx, 'AddtlTxInf'));
  const e2e = text(path(tx, 'Refs', 'EndToEndId'));
  return {
    name,
    remittance,
    endToEndId: e2e && e2e.toUpperCase() !== 'NOTPROVIDED' ? e2e : null,
    acctSvcrRef: text(path(tx, 'Refs', 'AcctSvcrRef')),
    amount: text(path(tx, 'AmtDtls', 'TxAmt', 'Amt')) ?? text(path(tx, 'Amt')),
    amountNode: path(tx, 'AmtDtls', 'TxAmt', 'Amt') ?? path(tx, 'Amt'),
    indicator: text(tx.CdtDbtInd),
    line: (tx[LINE] as number | undefined) ?? null,
  };
}

/**
 * A batch entry split into its parts (on request): one row per transaction detail, each with its own amount,
 * counterparty, remittance and reference; the parts' sum must be the booked amount, else the entry stays one row and
 * says why. Part ids derive from the entry's (`ref:…:2`), so a re-import finds them.
 */
function splitBatch(row: ParsedRow, txs: readonly Tx[], credit: boolean): ParsedRow[] | string {
  const parts = txs.map((t) => {
    const a = amountOf(t.amountNode, row.currency);
    const partCredit = t.indicator ? t.indicator === 'CRDT' : credit;
    return { t, minor: a.minor === null || a.currency !== row.currency ? null : partCredit ? a.minor : -a.minor };
  });
  if (parts.some((p) => p.minor === null)) return 'a part of the batch has no amount in the booking currency: kept as one row';
  const sum = parts.reduce((n, p) => n + p.minor!, 0);
  if (sum !== row.amountMinor) {
    return `the batch's parts add up to ${formatMinor(sum, row.currency)}, but ${formatMinor(row.amountMinor, row.currency)} was booked: kept as one row`;
  }
  return parts.map(({ t, minor }, k) => ({
    ...row,
    index: row.index + k,
    line: t.line ?? row.line,
    amountMinor: minor!,
    name: nameFrom(t.name, t.remittance),
    description: t.remittance,
    counterparty: t.name,
    externalId: row.externalId?.startsWith('ref:')
      ? `${row.externalId}:${k + 1}`
      : t.endToEndId
        ? `e2e:${t.endToEndId}:${row.date}:${minor}`
        : null,
    details: {
      ...Object.fromEntries(Object.entries(row.details).filter(([key]) => key !== 'batch')),
      batchPart: { part: k + 1, of: txs.length, bookedAmount: row.amountMinor, entryId: row.externalId },
      ...(t.endToEndId ? { endToEndId: t.endToEndId } : {}),
    },
  }));
}

function charges(entry: Node): { amount: string; included: boolean | null; type: string | null }[] {
  const out: { amount: string; included: boolean | null; type: string | null }[] = [];
  for (const c of arr(entry.Chrgs)) {
    const records = arr(c.Rcrd);
    // .02 lists each charge as Chrgs itself; later versions group them in Rcrd.
    for (const r of records.length ? records : [c]) {
      const amount = text(r.Amt);
      if (!amount) continue;
      const incl = text(r.ChrgInclInd);
      out.push({
        amount,
        included: incl === null ? null : incl === 'true',
        type: text(path(r, 'Tp', 'Cd')) ?? text(path(r, 'Tp', 'Prtry', 'Id')),
      });
    }
  }
  return out;
}

export interface CamtOptions {
  /** Split a batch entry (one booking, several transaction details) into one row per part. */
  splitBatches?: boolean;
}

/** The statements of a camt document: one per account it reports on (a file may carry several). */
export function parseCamt(
  content: string,
  encoding: TextEncoding,
  accountCurrency: string,
  options: CamtOptions = {},
): ParsedFile[] {
  const refuse = (line: number | null, message: string) => {
    const file = emptyFile('camt', encoding, null);
    file.errors.push({ line, row: null, field: null, message });
    return [file];
  };
  let tree: Node;
  try {
    tree = readXml(content);
  } catch (err) {
    const e = err as XmlError;
    return refuse(e.line ?? null, `Malformed XML: ${e.message}`);
  }
  const doc = node(tree.Document);
  const root = node(doc?.BkToCstmrStmt) ?? node(doc?.BkToCstmrAcctRpt) ?? node(doc?.BkToCstmrDbtCdtNtfctn);
  if (!doc || !root) {
    return refuse(
      1,
      'Not an ISO 20022 camt.052, camt.053 or camt.054 document (no BkToCstmrStmt, BkToCstmrAcctRpt or BkToCstmrDbtCdtNtfctn)',
    );
  }
  const groups = new Map<string | null, Node[]>();
  for (const s of [...arr(root.Stmt), ...arr(root.Rpt), ...arr(root.Ntfctn)]) {
    const account = text(path(s, 'Acct', 'Id', 'IBAN')) ?? text(path(s, 'Acct', 'Id', 'Othr', 'Id'));
    groups.set(account, [...(groups.get(account) ?? []), s]);
  }
  if (groups.size === 0)
    return [emptyFile('camt', encoding, null)].map((f) => ({ ...f, warnings: ['The document holds no statement'] }));
  return [...groups].map(([account, statements]) => readAccount(statements, account, encoding, accountCurrency, options));
}

/** One account's statements (Stmt, Rpt or Ntfctn) of the document as one ParsedFile. */
function readAccount(
  statements: readonly Node[],
  account: string | null,
  encoding: TextEncoding,
  accountCurrency: string,
  options: CamtOptions,
): ParsedFile {
  const file = emptyFile('camt', encoding, account);
  for (const stmt of statements) {
    const currency = text(path(stmt, 'Acct', 'Ccy'))?.toUpperCase() ?? accountCurrency;
    file.currency ??= currency;
    const lastBefore = () => (file.rows.length ? file.rows[file.rows.length - 1]!.index : -1);
    const balances = arr(stmt.Bal);
    const closing: BalancePoint[] = [];
    // Bal elements precede the entries in every version of the schema.
    for (const b of balances) {
      const line = (b[LINE] as number | undefined) ?? null;
      const code = text(path(b, 'Tp', 'CdOrPrtry', 'Cd'));
      if (code !== 'OPBD' && code !== 'PRCD' && code !== 'CLBD') continue;
      const amt = amountOf(b.Amt, currency);
      if (amt.minor === null) {
        file.errors.push({ line, row: null, field: 'Bal', message: `"${amt.text}" is not a balance amount` });
        continue;
      }
      const sign = text(b.CdtDbtInd) === 'DBIT' ? -1 : 1;
      const point: BalancePoint = {
        kind: code === 'CLBD' ? 'closing' : 'opening',
        afterIndex: lastBefore(),
        date: day(b.Dt),
        amountMinor: sign * amt.minor,
        line,
      };
      if (point.kind === 'opening') file.balances.push(point);
      else closing.push(point);
    }
    for (const entry of arr(stmt.Ntry)) {
      const line = (entry[LINE] as number | undefined) ?? null;
      const index = file.rows.length + file.rejected.length;
      const err = (field: string, message: string) => file.errors.push({ line, row: index, field, message });
      const amt = amountOf(entry.Amt, currency);
      if (amt.minor === null) {
        err('Amt', `"${amt.text}" is not an amount`);
        continue;
      }
      const indicator = text(entry.CdtDbtInd);
      if (indicator !== 'CRDT' && indicator !== 'DBIT') {
        err('CdtDbtInd', `"${indicator ?? ''}" is neither CRDT nor DBIT`);
        continue;
      }
      const credit = indicator === 'CRDT';
      // camt.052 and .054 entries may lack a booking date: the value date stands in, and the row says so.
      const booked = day(entry.BookgDt);
      const date = booked ?? day(entry.ValDt);
      if (!date) {
        err('BookgDt', 'the entry has neither a booking date nor a value date');
        continue;
      }
      const status = text(entry.Sts) ?? text(path(entry, 'Sts', 'Cd')) ?? 'BOOK';
      const txs = arr(entry.NtryDtls).flatMap((d) => arr(d.TxDtls).map((t) => txDetails(t, credit)));
      const batchCount = Number(text(path(arr(entry.NtryDtls)[0], 'Btch', 'NbOfTxs')) ?? (txs.length > 1 ? txs.length : 0));
      const additional = text(entry.AddtlNtryInf);
      const single = txs.length === 1 ? txs[0]! : null;
      const counterparty = single?.name ?? null;
      const description =
        txs.length > 1
          ? `Batch of ${batchCount || txs.length}: ${txs
              .map((t) => [t.name, t.remittance].filter(Boolean).join(' '))
              .filter(Boolean)
              .join('; ')}`
          : [single?.remittance, additional].filter(Boolean).join(' ') || null;
      const ref = text(entry.AcctSvcrRef) ?? single?.acctSvcrRef ?? null;
      const amountMinor = credit ? amt.minor : -amt.minor;
      const externalId = ref ? `ref:${ref}` : single?.endToEndId ? `e2e:${single.endToEndId}:${date}:${amountMinor}` : null;
      const bankCode = [
        text(path(entry, 'BkTxCd', 'Domn', 'Cd')),
        text(path(entry, 'BkTxCd', 'Domn', 'Fmly', 'Cd')),
        text(path(entry, 'BkTxCd', 'Domn', 'Fmly', 'SubFmlyCd')),
      ]
        .filter(Boolean)
        .join('/');
      const details: Record<string, unknown> = {};
      if (bankCode) details.bankTransactionCode = bankCode;
      if (text(path(entry, 'BkTxCd', 'Prtry', 'Cd'))) details.proprietaryCode = text(path(entry, 'BkTxCd', 'Prtry', 'Cd'));
      if (text(entry.RvslInd) === 'true') details.reversal = true;
      const fees = charges(entry);
      if (fees.length) details.charges = fees;
      if (txs.length > 1) {
        details.batch = txs.map((t) => ({ name: t.name, reference: t.endToEndId, remittance: t.remittance, amount: t.amount }));
      } else if (single?.endToEndId) {
        details.endToEndId = single.endToEndId;
      }
      const row: ParsedRow = {
        index,
        line: line ?? 0,
        date,
        valueDate: day(entry.ValDt),
        amountMinor,
        currency: amt.currency,
        name: nameFrom(counterparty, description, additional),
        description,
        counterparty,
        externalId,
        status: status === 'PDNG' ? 'pending' : 'posted',
        balanceAfterMinor: null,
        details,
        ...(booked ? {} : { note: `no booking date in the file: booked on the value date ${date}` }),
      };
      if (status === 'INFO' || status === 'FUTR') {
        file.rejected.push({ line, row: index, field: 'Sts', message: `status ${status}: information only, not booked` });
        continue;
      }
      if (amt.currency !== accountCurrency) {
        file.rejected.push({
          line,
          row: index,
          field: 'Amt',
          message: `in ${amt.currency}, but the account holds ${accountCurrency}`,
        });
        continue;
      }
      if (options.splitBatches && txs.length > 1) {
        const parts = splitBatch(row, txs, credit);
        if (typeof parts === 'string') file.rows.push({ ...row, note: parts });
        else file.rows.push(...parts);
        continue;
      }
      file.rows.push(row);
    }
    for (const c of closing) file.balances.push({ ...c, afterIndex: lastBefore() });
  }
  if (file.rows.length === 0 && file.rejected.length === 0 && file.errors.length === 0) {
    file.warnings.push('The statement holds no entries');
  }
  return file;
}
