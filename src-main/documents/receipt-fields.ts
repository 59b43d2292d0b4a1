/**
 * Finds a receipt's or invoice's merchant, date, total, currency, VAT and website in its text (from a PDF's text layer
 * or from OCR). Pure and deterministic; docs/decisions/0083-document-extraction.md gives the rules and the measured
 * accuracy.
 *
 * - Amounts are decimal strings ("1234.56"): the currency, and so the minor unit, may be unknown here; the caller
 *   converts with the currency it settles on. Both "1,234.56" and "1.234,56" read as 1234.56: the last separator
 *   followed by one or two digits is the decimal point.
 * - Total: the largest amount on a line labelled as a total (total, amount due, Summe, Gesamt…; never subtotal),
 *   else the largest amount of the text. Totals are never smaller than the subtotals they close.
 * - Date: ISO, day-first with dots, slashed (day-first unless a part rules it out, or the text is in US dollars),
 *   and month names in English and German; a date on a line labelled as a date wins over the first date seen.
 * - VAT: the amounts (and rate) of VAT/MwSt/USt/BTW/TVA/IVA/GST/sales-tax lines, summed over several rates.
 */

export interface ReceiptFields {
  merchant: string | null;
  date: string | null;
  /** Decimal string in major units, e.g. "23.40". */
  amount: string | null;
  currency: string | null;
  vatAmount: string | null;
  /** Percent, when one rate applies. */
  vatRate: number | null;
  website: string | null;
}

const SYMBOLS: [RegExp, string][] = [
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/¥|円/, 'JPY'],
  [/\$/, 'USD'],
];
const CODES = ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK'];
const CODE_RE = new RegExp(`\\b(${CODES.join('|')})\\b`);

/** A money amount: digits with optional thousands separators and a 1–2 digit decimal part. */
const AMOUNT_RE = /(?<![\d.,])(-?\d{1,3}(?:[.,' ]\d{3})+[.,]\d{2}|-?\d+[.,]\d{2})(?![\d%])/g;
const PERCENT_RE = /(\d{1,2}(?:[.,]\d{1,3})?)\s?%/;

/** Whole words in any script: `\b` is ASCII-only and finds "hst" inside "Frühstück". */
const words = (alternatives: string) => new RegExp(`(?<![\\p{L}\\p{N}])(${alternatives})(?![\\p{L}\\p{N}])`, 'iu');
const TOTAL_WORDS = words(
  'total|totaal|gesamt|gesamtbetrag|gesamtsumme|summe|amount due|balance due|grand total|zu zahlen|montant|net à payer|totale|importe|endbetrag|rechnungsbetrag',
);
const NOT_TOTAL = words('sub-?total|zwischensumme|subtotaal|total tax|tax total|netto');
const VAT_WORDS = words('vat|mwst|ust|btw|tva|iva|gst|hst|sales tax|tax|steuer');
const NOT_VAT = words('vat no|vat reg|vat id|tax id|uid|steuernummer|steuer-?nr|ust-?id');
/** Percentages that are not a tax: a tip, a discount, a service charge. */
const NOT_TAX_ROW = words('tip|gratuity|trinkgeld|pourboire|service|discount|rabatt|remise|skonto');
const DATE_WORDS = words('date|datum|rechnungsdatum|reisedatum|invoice date|issued|fecha|date de');
const NOT_MERCHANT = new RegExp(
  `^${words('receipt|invoice|rechnung|quittung|beleg|kassenbon|fahrkarte|tax invoice|bill|thank you|danke|welcome|facture|ticket|reçu|merci|bienvenue').source}`,
  'iu',
);
/** Document titles: a line of nothing else is no merchant; one printed after the merchant's name is not part of it. */
const TITLES =
  'tax invoice|sales receipt|invoice|receipt|rechnung|quittung|kassenbon|kassenbeleg|bewirtungsbeleg|beleg|gutschrift|' +
  'facture|ticket de caisse|ticket|reçu|recu|note de frais|factuur|kassabon|bon|bill|credit note';
const TITLE_LINE = new RegExp(`^(?:${TITLES})(?:\\s+(?:${TITLES}))*$`, 'iu');
const TRAILING_TITLE =
  /\s+(?:tax invoice|sales receipt|invoice|receipt|rechnung|quittung|kassenbon|gutschrift|facture|ticket de caisse|reçu|factuur|credit note)$/iu;

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  januar: 1,
  jänner: 1,
  feb: 2,
  february: 2,
  februar: 2,
  mar: 3,
  march: 3,
  märz: 3,
  maerz: 3,
  apr: 4,
  april: 4,
  may: 5,
  mai: 5,
  jun: 6,
  june: 6,
  juni: 6,
  jul: 7,
  july: 7,
  juli: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  okt: 10,
  oktober: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
  dez: 12,
  dezember: 12,
};

/** "1,234.56" / "1.234,56" / "89,90" / "1 234,50" → "1234.56"-style decimal string. */
export function normalizeAmount(token: string): string | null {
  const negative = token.startsWith('-');
  const t = token.replace(/^-/, '');
  const m = /^(.*)[.,](\d{1,2})$/.exec(t);
  if (!m) return /^\d+$/.test(t) ? `${negative ? '-' : ''}${t}` : null;
  const int = (m[1] ?? '').replace(/[.,' ]/g, '');
  if (!/^\d+$/.test(int)) return null;
  return `${negative ? '-' : ''}${String(Number(int))}.${(m[2] ?? '').padEnd(2, '0')}`;
}

function amountsOf(line: string): string[] {
  const withoutPercents = line.replace(new RegExp(PERCENT_RE.source, 'g'), ' ');
  const out: string[] = [];
  for (const m of withoutPercents.matchAll(AMOUNT_RE)) {
    const a = normalizeAmount(m[1]!);
    if (a !== null) out.push(a);
  }
  return out;
}

const num = (a: string) => Number(a);

function currencyOf(line: string): string | null {
  const code = CODE_RE.exec(line.toUpperCase());
  if (code) return code[1]!;
  if (/\bFr\.|SFr/.test(line)) return 'CHF';
  for (const [re, cur] of SYMBOLS) if (re.test(line)) return cur;
  return null;
}

function validDate(y: number, m: number, d: number): string | null {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

const fullYear = (y: number) => (y < 100 ? 2000 + y : y);

/**
 * OCR misreads a blurred 0 as 6, 8 or 9 and 1 as 7. A numeric date that is invalid as read is tried once with each
 * single such repair; it is taken only when exactly one repair makes it valid.
 */
const OCR_DIGIT_REPAIRS: Record<string, string> = { '6': '0', '8': '0', '9': '0', '7': '1' };

function repairedDates(line: string, monthFirst: boolean): string[] {
  const out = new Set<string>();
  for (const m of line.matchAll(/\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/g)) {
    const token = m[0];
    for (let i = 0; i < token.length; i++) {
      const repair = OCR_DIGIT_REPAIRS[token[i]!];
      if (!repair) continue;
      const fixed = token.slice(0, i) + repair + token.slice(i + 1);
      for (const d of datesOf(fixed, monthFirst, false)) out.add(d);
    }
  }
  return out.size === 1 ? [...out] : [];
}

/** Every date in a line, in order of appearance. `monthFirst` decides slashed dates that could be either. */
function datesOf(line: string, monthFirst: boolean, repair = true): string[] {
  const found: { at: number; date: string }[] = [];
  const push = (at: number, date: string | null) => {
    if (date) found.push({ at, date });
  };
  for (const m of line.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) push(m.index, validDate(+m[1]!, +m[2]!, +m[3]!));
  for (const m of line.matchAll(/\b(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})\b/g)) {
    push(m.index, validDate(fullYear(+m[3]!), +m[2]!, +m[1]!));
  }
  // Slashed, or dashed with a four-digit year last (dd-MM-yyyy, which the product's own invoices offer).
  for (const m of line.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b|(?<![\d-])(\d{1,2})-(\d{1,2})-(\d{4})\b/g)) {
    const a = +(m[1] ?? m[4])!;
    const b = +(m[2] ?? m[5])!;
    const y = fullYear(+(m[3] ?? m[6])!);
    const dayFirst = a > 12 ? true : b > 12 ? false : !monthFirst;
    push(m.index, dayFirst ? validDate(y, b, a) : validDate(y, a, b));
  }
  const monthName = Object.keys(MONTHS).join('|');
  for (const m of line.matchAll(new RegExp(`\\b(${monthName})\\.?\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'gi'))) {
    push(m.index, validDate(+m[3]!, MONTHS[m[1]!.toLowerCase()]!, +m[2]!));
  }
  for (const m of line.matchAll(new RegExp(`\\b(\\d{1,2})\\.?\\s+(${monthName})\\.?,?\\s+(\\d{4})\\b`, 'gi'))) {
    push(m.index, validDate(+m[3]!, MONTHS[m[2]!.toLowerCase()]!, +m[1]!));
  }
  if (found.length === 0 && repair) return repairedDates(line, monthFirst);
  return found.sort((x, y) => x.at - y.at).map((f) => f.date);
}

function merchantOf(lines: readonly string[]): string | null {
  for (const line of lines.slice(0, 6)) {
    const printed = line
      .replace(/[|_*=~#\\]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (TITLE_LINE.test(printed)) continue;
    // "Acme Trading B.V. INVOICE": the title is not part of the name; OCR's "B. V." is the legal form "B.V.".
    const clean = printed.replace(TRAILING_TITLE, '').replace(/\b(\p{Lu})\. (\p{Lu})\.(?=\s|$)/gu, '$1.$2.');
    const letters = clean.match(/\p{L}/gu)?.length ?? 0;
    if (letters < 3 || letters < clean.length / 2) continue;
    if (NOT_MERCHANT.test(clean) || DATE_WORDS.test(clean) || amountsOf(clean).length > 0) continue;
    if (/^(www\.|https?:)/i.test(clean) || /@/.test(clean)) continue;
    // OCR often loses the capital of a name's first letter ("office Depot"): restore it when later words have one.
    if (/^\p{Ll}/u.test(clean) && /\s\p{Lu}/u.test(clean)) return clean[0]!.toUpperCase() + clean.slice(1);
    return clean;
  }
  return null;
}

/**
 * The VAT of a tax-table row: net, VAT and gross in that order, where VAT = net × rate and gross = net + VAT, each
 * within a cent; null when the row is not such a row (a discount or a tip with a percentage is not).
 */
function taxTableVat(cents: readonly number[], rate: number): number | null {
  if (rate <= 0 || rate >= 100) return null;
  for (let i = 0; i + 2 < cents.length; i++) {
    const [net, vat, gross] = [cents[i]!, cents[i + 1]!, cents[i + 2]!];
    if (vat > 0 && Math.abs((net * rate) / 100 - vat) <= 1 && Math.abs(net + vat - gross) <= 1) return vat;
  }
  return null;
}

function websiteOf(text: string): string | null {
  const m =
    /\b(?:https?:\/\/)?((?:www\.)?[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|de|at|ch|co\.uk|uk|fr|nl|es|it|eu))\b(?!@)/i.exec(
      text.replace(/\S+@\S+/g, ' '),
    );
  return m ? m[1]!.toLowerCase() : null;
}

export function parseReceipt(text: string): ReceiptFields {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l.length > 0);

  // Currency: the total line's, else the most frequent in the text.
  const counts = new Map<string, number>();
  for (const l of lines) {
    const c = currencyOf(l);
    if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let currency: string | null = null;
  let best = 0;
  for (const [c, n] of counts) {
    if (n > best) {
      best = n;
      currency = c;
    }
  }

  let total: string | null = null;
  let totalCurrency: string | null = null;
  for (const l of lines) {
    if (!TOTAL_WORDS.test(l) || NOT_TOTAL.test(l)) continue;
    const amounts = amountsOf(l);
    const last = amounts[amounts.length - 1];
    if (last !== undefined && (total === null || num(last) > num(total))) {
      total = last;
      totalCurrency = currencyOf(l);
    }
  }
  if (total === null) {
    for (const l of lines) for (const a of amountsOf(l)) if (total === null || num(a) > num(total)) total = a;
  }
  currency = totalCurrency ?? currency;

  const monthFirst = currency === 'USD';
  let date: string | null = null;
  for (const l of lines) {
    const ds = datesOf(l, monthFirst);
    if (ds.length === 0) continue;
    if (DATE_WORDS.test(l)) {
      date = ds[0]!;
      break;
    }
    date ??= ds[0]!;
  }

  let vatMinorSum = 0;
  let vatFound = false;
  const rates = new Set<number>();
  let rateWithoutAmount: number | null = null;
  for (const l of lines) {
    if (!VAT_WORDS.test(l) || NOT_VAT.test(l)) continue;
    const rate = PERCENT_RE.exec(l);
    const amounts = amountsOf(l);
    const last = amounts[amounts.length - 1];
    if (last === undefined) {
      // A rate whose amount OCR garbled ("2,13" read as "25713"): derived from the total below.
      if (rate) rateWithoutAmount = Number(rate[1]!.replace(',', '.'));
      continue;
    }
    vatFound = true;
    vatMinorSum += Math.round(num(last) * 100);
    if (rate) rates.add(Number(rate[1]!.replace(',', '.')));
  }
  if (!vatFound) {
    // A VAT table by tax class ("A= 7,0%  2,74  0,19  2,93" under "Steuer % Netto Steuer Brutto"): rows without a
    // VAT word, taken when their rate and amounts agree (see taxTableVat).
    for (const l of lines) {
      const rate = PERCENT_RE.exec(l);
      if (!rate || NOT_TAX_ROW.test(l)) continue;
      const r = Number(rate[1]!.replace(',', '.'));
      const cents = amountsOf(l).map((a) => Math.round(num(a) * 100));
      const vat = taxTableVat(cents, r);
      if (vat === null) continue;
      vatFound = true;
      vatMinorSum += vat;
      rates.add(r);
    }
  }
  if (!vatFound && rateWithoutAmount !== null && total !== null && rateWithoutAmount > 0 && rateWithoutAmount < 100) {
    // The total includes the tax whether it was VAT (inclusive) or sales tax (added): tax = total × r / (100 + r).
    vatFound = true;
    vatMinorSum = Math.round((Math.round(num(total) * 100) * rateWithoutAmount) / (100 + rateWithoutAmount));
    rates.add(rateWithoutAmount);
  }

  return {
    merchant: merchantOf(lines),
    date,
    amount: total,
    currency,
    vatAmount: vatFound ? (vatMinorSum / 100).toFixed(2) : null,
    vatRate: rates.size === 1 ? [...rates][0]! : null,
    website: websiteOf(text),
  };
}
