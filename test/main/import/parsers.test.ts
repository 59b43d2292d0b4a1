import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode, detectEncoding } from '../../../src-main/import/encoding';
import { detectFormat, parseBankFile } from '../../../src-main/import/parse-file';
import { parseField86 } from '../../../src-main/import/parsers/mt940';
import { fingerprints } from '../../../src-main/store/import/fingerprint';
import { inferDecimal, parseAmount } from '../../../src-shared/domain/import/amounts';
import { checkBalances } from '../../../src-shared/domain/import/balance';
import { inferDateFormat, parseDate } from '../../../src-shared/domain/import/dates';
import { decideMatches, scoreCandidate } from '../../../src-shared/domain/import/matching';

/** Each hand-written fixture (from the format's published specification) with its expected parse, as a table. */
const FIXTURES = path.resolve(__dirname, '../../fixtures/import');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

type Expected = [date: string, amountMinor: number, name: string, description: string | null, externalId: string | null];

function rows(name: string, currency: string) {
  const r = parseBankFile(read(name), { filename: name, currency });
  expect(r.file.errors).toEqual([]);
  return r;
}

const table = (r: ReturnType<typeof rows>) =>
  r.file.rows.map((x): Expected => [x.date, x.amountMinor, x.name, x.description, x.externalId]);

describe('CSV dialects of real banks', () => {
  it('DKB (Germany): Windows-1252, account block before the header, newest first, DD.MM.YYYY, decimal comma', () => {
    const r = rows('dkb-giro.csv', 'EUR');
    expect(r.file).toMatchObject({ format: 'csv', encoding: 'windows-1252' });
    expect(r.file.mapping).toMatchObject({
      delimiter: ';',
      headerRow: 4,
      dateFormat: 'DD.MM.YYYY',
      decimal: ',',
      amount: { kind: 'signed', column: { header: 'Betrag (EUR)' } },
      counterparty: { header: 'Auftraggeber / Begünstigter' },
      valueDate: { header: 'Wertstellung' },
    });
    expect(table(r)).toEqual<Expected[]>([
      ['2026-03-31', -8400, 'Stadtwerke München GmbH', 'Strom März 2026 – Vertrag 4471', null],
      ['2026-03-30', 357000, 'Kunde Nord GmbH', 'RE-2026-0312 Beratung Februar', null],
      ['2026-03-12', -2345, 'REWE Markt 4471', '2026-03-11T18:22 Debitk.31 VISA Debit', null],
      ['2026-03-12', -2345, 'REWE Markt 4471', '2026-03-11T18:22 Debitk.31 VISA Debit', null],
      ['2026-03-02', -125000, 'Hausverwaltung Becker', 'Miete Büro März', null],
    ]);
    expect(r.file.rows.map((x) => x.line)).toEqual([8, 9, 10, 11, 12]);
  });

  it('Lloyds (UK): debit and credit columns, running balance, newest first, DD/MM/YYYY', () => {
    const r = rows('lloyds.csv', 'GBP');
    expect(r.file.mapping).toMatchObject({ dateFormat: 'DD/MM/YYYY', amount: { kind: 'split' }, balance: { header: 'Balance' } });
    expect(table(r)).toEqual<Expected[]>([
      ['2026-03-31', -6250, 'BRITISH GAS', 'BRITISH GAS', null],
      ['2026-03-28', 125000, 'ACME LTD INV 2207', 'ACME LTD INV 2207', null],
      ['2026-03-14', -1829, 'TESCO STORES 2291', 'TESCO STORES 2291', null],
      ['2026-03-03', -43500, 'OFFICE RENT MARCH', 'OFFICE RENT MARCH', null],
    ]);
    expect(r.file.newestFirst).toBe(true);
    expect(checkBalances(r.file, 'GBP')).toMatchObject({ status: 'ok', openingMinor: 100_000, computedClosingMinor: 173_421 });
  });

  it('Chase (US): month-first dates decided by the whole column, one signed amount, trailing delimiter', () => {
    const r = rows('chase.csv', 'USD');
    expect(r.file.mapping).toMatchObject({ dateFormat: 'MM/DD/YYYY', decimal: '.', description: [{ header: 'Description' }] });
    expect(table(r)).toEqual<Expected[]>([
      ['2026-03-28', -4217, 'AMAZON MKTPL*2K4LL1QX2 Amzn.com/bill WA', 'AMAZON MKTPL*2K4LL1QX2 Amzn.com/bill WA', null],
      ['2026-03-15', 183050, 'STRIPE TRANSFER ST-K2J4L5, PAYOUT', 'STRIPE TRANSFER ST-K2J4L5, PAYOUT', null],
      ['2026-03-13', -25000, 'CHECK 1042', 'CHECK 1042', null],
      ['2026-03-02', -5999, 'ADOBE *CREATIVE CLOUD 408-536-6000 CA', 'ADOBE *CREATIVE CLOUD 408-536-6000 CA', null],
    ]);
    expect(checkBalances(r.file, 'USD').status).toBe('ok');
  });

  it('BNP Paribas (France): ISO-8859-1, Débit/Crédit columns, space thousands, decimal comma', () => {
    const r = rows('bnp.csv', 'EUR');
    expect(r.file.encoding).toBe('ISO-8859-1');
    expect(r.file.mapping).toMatchObject({ amount: { kind: 'split', debit: { header: 'Débit euros' } }, decimal: ',' });
    expect(table(r).map(([d, a]) => [d, a])).toEqual([
      ['2026-03-05', -4999],
      ['2026-03-09', 125000],
      ['2026-03-17', -1240],
      ['2026-03-24', -800],
    ]);
  });

  it('ING (Netherlands): all quoted, YYYYMMDD, unsigned amounts with an Af/Bij column', () => {
    const r = rows('ing.csv', 'EUR');
    expect(r.file.mapping).toMatchObject({
      dateFormat: 'YYYYMMDD',
      amount: { kind: 'indicator', indicator: { header: 'Af Bij' }, debitValues: ['Af'] },
    });
    expect(table(r).map(([d, a, n]) => [d, a, n])).toEqual([
      ['2026-03-02', -2345, 'Albert Heijn 1403'],
      ['2026-03-05', 242000, 'Van Dijk Consultancy BV'],
      ['2026-03-10', -3550, 'KPN B.V.'],
    ]);
  });

  it('reports a data line with a broken date by its line instead of skipping it as a footer', () => {
    const text = read('dkb-giro.csv')
      .toString('latin1')
      .replace('"12.03.2026";"12.03.2026";"Kartenzahlung"', '"31.04.2026";"12.03.2026";"Kartenzahlung"');
    const r = parseBankFile(Buffer.from(text, 'latin1'), { currency: 'EUR' });
    expect(r.file.errors).toEqual([
      { line: 10, row: 2, field: 'date', message: '"31.04.2026" is not a date in the format DD.MM.YYYY' },
    ]);
  });

  it('takes day-first from the one value that proves it, even when it is the last line', () => {
    const file = Buffer.from('Date,Description,Amount\n01/02/2026,A,-1.00\n03/02/2026,B,-2.00\n25/02/2026,C,-3.00\n');
    const r = parseBankFile(file, { currency: 'EUR' });
    expect(r.file.mapping).toMatchObject({ dateFormat: 'DD/MM/YYYY' });
    expect(r.file.rows.map((x) => x.date)).toEqual(['2026-02-01', '2026-02-03', '2026-02-25']);
  });

  it('marks an undecidable day/month order as ambiguous and picks the order that keeps the statement sorted', () => {
    const file = Buffer.from('Date,Description,Amount\n02/01/2026,A,-1.00\n03/01/2026,B,-2.00\n04/01/2026,C,-3.00\n');
    const r = parseBankFile(file, { currency: 'EUR' });
    expect(r.notes.join(' ')).toMatch(/MM\/DD\/YYYY would also fit|DD\/MM\/YYYY would also fit/);
    const days = r.file.rows.map((x) => x.date);
    expect([...days].sort()).toEqual(days);
  });
});

describe('OFX', () => {
  it('1.x SGML (unclosed leaves, CHARSET 1252): FITIDs, DTPOSTED with a time zone, LEDGERBAL', () => {
    const r = rows('bank-102.ofx', 'USD');
    expect(r.file).toMatchObject({ format: 'ofx', encoding: 'windows-1252', accountRef: '000123456789' });
    expect(table(r)).toEqual<Expected[]>([
      ['2026-03-02', -5999, 'ADOBE *CREATIVE CLOUD', '408-536-6000 CA', 'fitid:202603020001'],
      ['2026-03-13', -25000, 'CHECK 1042', 'CHECK 1042', 'fitid:202603130002'],
      ['2026-03-15', 183050, 'STRIPE TRANSFER', 'ST-K2J4L5 PAYOUT', 'fitid:202603150003'],
      ['2026-03-28', -4217, 'AMAZON MKTPL&AMZN', 'AMAZON MKTPL&AMZN', 'fitid:202603280004'],
    ]);
    expect(r.file.rows[1]!.details).toMatchObject({ trnType: 'CHECK', checkNum: '1042' });
    expect(r.file.balances).toEqual([{ kind: 'closing', afterIndex: 3, date: '2026-03-31', amountMinor: 512_033, line: null }]);
    // OFX states no opening: the account's own balance before the file opens it, else the check is not possible.
    expect(checkBalances(r.file, 'USD').status).toBe('unchecked');
    expect(checkBalances(r.file, 'USD', { amountMinor: 364_199 }).status).toBe('ok');
  });

  it('2.x XML credit-card statement (CCSTMTRS), UTF-8', () => {
    const r = rows('card-211.ofx', 'EUR');
    expect(r.file).toMatchObject({ format: 'ofx', encoding: 'UTF-8', accountRef: '4111********1111' });
    expect(table(r)).toEqual<Expected[]>([
      ['2026-03-04', -11900, 'Lufthansa 2201938844', 'Frankfurt – München', 'fitid:CC-88231-0304-1'],
      ['2026-03-11', -1490, 'Café Kranzler', 'Café Kranzler', 'fitid:CC-88231-0311-1'],
      ['2026-03-20', 25000, 'Zahlung - Danke', 'Zahlung - Danke', 'fitid:CC-88231-0320-1'],
    ]);
    expect(r.file.balances[0]).toMatchObject({ kind: 'closing', amountMinor: -43_380 });
  });
});

describe('camt.053', () => {
  it('two daily statements with a batch entry, charges, an EndToEndId-only entry and a pending one', () => {
    const r = rows('camt053-v08.xml', 'EUR');
    expect(r.file).toMatchObject({ format: 'camt', accountRef: 'DE89370400440532013000' });
    expect(table(r)).toEqual<Expected[]>([
      ['2026-03-02', 150000, 'Kunde Nord GmbH', 'RE-2026-041 Beratung Februar', 'ref:2026030200001'],
      [
        '2026-03-02',
        -321000,
        'Batch of 2: Anna Schmidt Gehalt 03/2026; Ben Weber Gehalt 03/2026',
        'Batch of 2: Anna Schmidt Gehalt 03/2026; Ben Weber Gehalt 03/2026',
        'ref:2026030200002',
      ],
      ['2026-03-02', -102750, 'Acme Ltd', 'PO-7781 licence renewal', 'ref:2026030200003'],
      ['2026-03-03', -1200, 'Kontoführungsentgelt Februar', 'Kontoführungsentgelt Februar', 'ref:2026030300001'],
      ['2026-03-03', -4999, 'Telekom Deutschland GmbH', 'Rechnung 03/2026 Kundennr 4471', 'e2e:TDG-4471-202603:2026-03-03:-4999'],
      ['2026-03-03', 25000, 'Vorgemerkte Gutschrift', 'Vorgemerkte Gutschrift', 'ref:2026030300099'],
    ]);
    expect(r.file.rows.map((x) => x.status)).toEqual(['posted', 'posted', 'posted', 'posted', 'posted', 'pending']);
    expect(r.file.rows[1]!.details.batch).toHaveLength(2);
    expect(r.file.rows[2]!.details.charges).toEqual([{ amount: '27.50', included: true, type: 'COMM' }]);
    expect(r.file.balances.map((b) => [b.kind, b.afterIndex, b.amountMinor])).toEqual([
      ['opening', -1, 1_000_000],
      ['closing', 2, 726_250],
      ['opening', 2, 726_250],
      ['closing', 5, 720_051],
    ]);
    expect(checkBalances(r.file, 'EUR').status).toBe('ok');
  });

  it('reads camt.052 and camt.054 documents the same way', () => {
    const xml = read('camt053-v08.xml')
      .toString()
      .replace('camt.053.001.08', 'camt.054.001.08')
      .replaceAll('BkToCstmrStmt', 'BkToCstmrDbtCdtNtfctn')
      .replaceAll('<Stmt>', '<Ntfctn>')
      .replaceAll('</Stmt>', '</Ntfctn>');
    const r = parseBankFile(Buffer.from(xml), { currency: 'EUR' });
    expect(r.file.errors).toEqual([]);
    expect(r.file.rows).toHaveLength(6);
  });

  it('refuses malformed XML with its line', () => {
    const xml = read('camt053-v08.xml').toString().replace('</BookgDt>', '</BookingDate>');
    const r = parseBankFile(Buffer.from(xml), { currency: 'EUR' });
    // The first <BookgDt> is closed as </BookingDate> on line 33.
    expect(r.file.errors[0]!.line).toBe(33);
    expect(r.file.errors[0]!.message).toMatch(/^Malformed XML: unexpected close tag at column \d+ \(inside <\w+>\)$/);
  });
});

describe('MT940', () => {
  it('multi-line :86: (German structured with SEPA keywords, free text, /CODE/ form), a reversal, a year boundary', () => {
    const r = rows('statement.mt940', 'EUR');
    expect(r.file).toMatchObject({ format: 'mt940', accountRef: '37040044/0532013000' });
    expect(table(r)).toEqual<Expected[]>([
      ['2025-12-30', -12000, 'Software Vertrieb Sued GmbH', 'Software Lizenz Q1 2026', 'mt940:2025-12-30:-12000:2025123000441'],
      [
        '2026-01-02',
        250000,
        'HafenCity Bau AG',
        'RE-2025-118 Projekt HafenCity Abschluss',
        'mt940:2026-01-02:250000:2026010200118',
      ],
      [
        '2026-01-02',
        4550,
        'Rueckbuchung Entgelt Dezember: irrtuemlich belastete Kontofuehrungsgebuehr wird…',
        'Rueckbuchung Entgelt Dezember: irrtuemlich belastete Kontofuehrungsgebuehr wird erstattet',
        'mt940:2026-01-02:4550:2026010200119',
      ],
      ['2026-01-02', -123456, 'Acme Ltd', 'Licence renewal 2026', 'mt940:2026-01-02:-123456:2026010200120'],
    ]);
    expect(r.file.rows[0]!.details).toMatchObject({ gvc: '105', EREF: 'INV-99812', mandate: 'M-2231' });
    expect(r.file.rows[1]!.valueDate).toBe('2025-12-31');
    expect(r.file.rows[3]!.details).toMatchObject({ IBAN: 'GB33BUKB20201555555555', customerReference: 'PO-7781' });
    expect(checkBalances(r.file, 'EUR')).toMatchObject({ status: 'ok', openingMinor: 843_120, closingMinor: 962_214 });
  });

  it('names the row a doubled :61: line makes diverge', () => {
    const text = read('statement.mt940').toString();
    const doubled = text.replace(':62F:', ':61:260102RD45,50NCHGNONREF//2026010200121\n:62F:');
    const r = parseBankFile(Buffer.from(doubled), { currency: 'EUR' });
    const check = checkBalances(r.file, 'EUR');
    expect(check).toMatchObject({ status: 'mismatch', differenceMinor: -4550 });
    expect(check.suspects.map((s) => s.amountMinor)).toEqual([4550, 4550]);
  });

  it('parses :86: forms on their own', () => {
    expect(parseField86(['/EREF/E1/NAME/Shop GmbH/REMI/Order 7'])).toMatchObject({ name: 'Shop GmbH', purpose: 'Order 7' });
    expect(parseField86(['166?00GUTSCHRIFT?20SVWZ+Danke?32Max Mustermann'])).toMatchObject({
      name: 'Max Mustermann',
      purpose: 'Danke',
    });
  });
});

describe('building blocks', () => {
  it.each([
    ['1.234,56', ',', 'EUR', 123_456],
    ['-1.234,56', ',', 'EUR', -123_456],
    ['1,234.56', '.', 'USD', 123_456],
    ['(12.50)', '.', 'USD', -1250],
    ['12,50-', ',', 'EUR', -1250],
    ['1 250,00 €', ',', 'EUR', 125_000],
    ["1'250.00", '.', 'CHF', 125_000],
    ['1.5', '.', 'EUR', 150],
    ['1000', '.', 'JPY', 1000],
    ['12.345', '.', 'KWD', 12_345],
    ['1.005', '.', 'EUR', null],
    ['1,23,4', ',', 'EUR', null],
    ['abc', '.', 'EUR', null],
  ] as const)('parseAmount(%s, %s, %s) = %s', (text, decimal, currency, expected) => {
    expect(parseAmount(text, { decimal }, currency)).toBe(expected);
  });

  it('decides the decimal separator from the whole column', () => {
    expect(inferDecimal(['1.234', '12,50']).decimal).toBe(',');
    expect(inferDecimal(['1,234', '12.50']).decimal).toBe('.');
    expect(inferDecimal(['1.234.567']).decimal).toBe(',');
    expect(inferDecimal(['1,234']).ambiguous).toBe(true);
  });

  it('reads dates and decides formats from every value', () => {
    expect(parseDate('31.02.2026', 'DD.MM.YYYY')).toBeNull();
    expect(parseDate('2026-03-04T10:22:00Z', 'YYYY-MM-DD')).toBe('2026-03-04');
    expect(parseDate('4 Mar 2026', 'D MMM YYYY')).toBe('2026-03-04');
    expect(inferDateFormat(['03/04/2026', '03/13/2026'])).toMatchObject({ format: 'MM/DD/YYYY', ambiguous: false });
    expect(inferDateFormat(['13.03.26'])).toMatchObject({ format: 'DD.MM.YY' });
  });

  it('detects encodings from the bytes', () => {
    expect(detectEncoding(Buffer.from('plain ascii'))).toBe('UTF-8');
    expect(detectEncoding(Buffer.from('Müller', 'utf8'))).toBe('UTF-8');
    expect(detectEncoding(Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]))).toBe('ISO-8859-1');
    expect(detectEncoding(Buffer.from([0x80, 0x20, 0x31]))).toBe('windows-1252');
    expect(decode(Buffer.from([0x80, 0x20, 0x31])).text).toBe('€ 1');
    expect(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toBe('UTF-8');
  });

  it('detects formats from content, not the file name', () => {
    expect(detectFormat('OFXHEADER:100\nDATA:OFXSGML', 'x.csv')).toBe('ofx');
    expect(detectFormat('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">')).toBe('camt');
    expect(detectFormat(':20:STARTUMSE\n:25:123\n:28C:1\n:60F:C260101EUR1,00\n')).toBe('mt940');
    expect(detectFormat('Date;Amount\n01.01.2026;1,00', 'x.ofx')).toBe('ofx');
    expect(detectFormat('Date;Amount\n01.01.2026;1,00', 'x.txt')).toBe('csv');
  });

  it('fingerprints: identical rows on one day differ by occurrence; case, spacing and word order do not matter', () => {
    const row = (description: string, date = '2026-03-01') => ({
      index: 0,
      line: 1,
      date,
      valueDate: null,
      amountMinor: -450,
      currency: 'EUR',
      name: description,
      description,
      counterparty: null,
      externalId: null,
      status: 'posted' as const,
      balanceAfterMinor: null,
      details: {},
    });
    const [a, b] = fingerprints('acc', [row('Coffee Shop'), row('Coffee Shop')]);
    expect(a).not.toBe(b);
    expect(fingerprints('acc', [row('  coffee   SHOP ')])[0]).toBe(a);
    expect(fingerprints('acc', [row('Shop Coffee')])[0]).toBe(a);
    expect(fingerprints('acc', [row('Coffee Shop', '2026-03-08')])[0]).not.toBe(a);
    expect(fingerprints('other', [row('Coffee Shop')])[0]).not.toBe(a);
  });

  it('match scoring: one clear candidate links, two or a weak one go to review', () => {
    const bank = { date: '2026-03-12', name: 'COFFEE FELLOWS', description: 'Kartenzahlung', counterparty: 'Coffee Fellows' };
    const strong = scoreCandidate(bank, {
      transactionId: 'a',
      date: '2026-03-10',
      name: 'Coffee Fellows',
      description: null,
      counterpartyName: null,
    });
    const weak = scoreCandidate(bank, {
      transactionId: 'b',
      date: '2026-03-07',
      name: 'Lunch',
      description: null,
      counterpartyName: null,
    });
    expect(strong.score).toBeGreaterThanOrEqual(0.5);
    expect(weak.score).toBeLessThan(0.5);
    expect(decideMatches(new Map([[0, [strong]]])).get(0)).toMatchObject({ kind: 'link' });
    expect(decideMatches(new Map([[0, [weak]]])).get(0)).toMatchObject({ kind: 'review' });
    expect(decideMatches(new Map([[0, [strong, weak]]])).get(0)).toMatchObject({ kind: 'review' });
    // Two rows of one file claiming the same hand-entered row: neither is merged.
    expect(
      decideMatches(
        new Map([
          [0, [strong]],
          [1, [strong]],
        ]),
      ).get(1),
    ).toMatchObject({ kind: 'review' });
  });
});
