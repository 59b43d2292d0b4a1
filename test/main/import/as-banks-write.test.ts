import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBankFile } from '../../../src-main/import/parse-file';
import { commitFile, previewFile } from '../../../src-main/import/service';
import { listBatchRows } from '../../../src-main/store/import/batches';
import { write } from '../../../src-main/store/write';
import { checkBalances } from '../../../src-shared/domain/import/balance';
import { ImportRefused } from '../../../src-shared/domain/import/types';
import { accountRows, books, importFile, preview } from './helpers';

/**
 * MT940, OFX and camt as banks really write them (docs/decisions/0060): one fixture of our own per class of file
 * that public parser test collections showed us refused (test/fixtures/import/as-banks-write).
 */
const FIXTURES = path.resolve(__dirname, '../../fixtures/import/as-banks-write');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

type Row = [line: number, date: string, amountMinor: number, counterparty: string | null, description: string | null];

function parsed(name: string) {
  const r = parseBankFile(read(name), { filename: name, currency: 'EUR' });
  return {
    format: r.file.format,
    errors: r.file.errors,
    account: r.file.accountRef,
    balance: checkBalances(r.file, 'EUR').status,
    rows: r.file.rows.map((x): Row => [x.line, x.date, x.amountMinor, x.counterparty, x.description]),
  };
}

describe('MT940 as banks write it', () => {
  it('SWIFT header lines before the first field (ABN AMRO: BIC, then 940, then BIC), a :86: wrapped mid-value', async () => {
    expect(parsed('mt940-abnamro-header.sta')).toEqual({
      format: 'mt940',
      errors: [],
      account: '517852257',
      balance: 'ok',
      rows: [
        [8, '2026-03-02', -156, null, 'BEA NR:XXX1234 02.03.26/10.22 ALBERT HEIJN 1403 AMSTERDAM'],
        [10, '2026-03-05', 25000, 'VAN DIJK CONSULTANCY BV', 'FACTUUR 2026-014'],
      ],
    });
  });

  it('an ING file header ("0000 01INGBNL2AXXXX00001", "940 00"), a type code followed by an IBAN as reference', async () => {
    const r = parseBankFile(read('mt940-ing-header.sta'), { currency: 'EUR' });
    expect(r.file.errors).toEqual([]);
    expect(r.file.rows.map((x) => [x.line, x.amountMinor, x.counterparty, x.description, x.details])).toEqual([
      [
        8,
        -2500,
        'G.J.L.M. PAULISSEN',
        'Betaling sieraden',
        { transactionType: 'NOVB', customerReference: 'NL47INGB9999999999', EREF: 'NOTPROVIDED' },
      ],
      [
        11,
        10000,
        'ING BANK NV INZAKE WEB',
        'EV10001REP1000000T1000',
        {
          transactionType: 'NTRF',
          customerReference: 'EREF',
          bankReference: '00000000001006',
          EREF: 'EV12341REP1231456T1234',
        },
      ],
    ]);
    expect(checkBalances(r.file, 'EUR').status).toBe('ok');
  });

  it('a leading ":940:" line and blank lines before the statement (Rabobank)', async () => {
    expect(parsed('mt940-leading-940.sta')).toMatchObject({
      errors: [],
      account: 'NL50RABO0123456789',
      balance: 'ok',
      rows: [[8, '2026-03-31', -1250, 'Bakkerij De Korenaar', 'broodjes maart']],
    });
  });

  it('a funds code after the mark (DF2402,00), a :61: wrapped after "CR", a field tag split over two lines', async () => {
    expect(parsed('mt940-wrapped-lines.sta')).toEqual({
      format: 'mt940',
      errors: [],
      account: '10020030/1234567890',
      balance: 'ok',
      rows: [
        [6, '2026-03-01', -240200, 'HAUSVERWALTUNG BECKER', 'Miete Maerz'],
        [8, '2026-03-02', 3000, 'KUNDE NORD GMBH', 'Erstattung'],
      ],
    });
  });

  it('still refuses, naming the line, text that is neither a header nor a field, and a :61: no wrap explains', async () => {
    const text = read('mt940-wrapped-lines.sta')
      .toString()
      .replace(':20:STARTUMS', 'Kontoauszug vom 02.03.2026\r\n:20:STARTUMS')
      .replace('30,00N062NONREF', '30,00 EUR');
    const r = parseBankFile(Buffer.from(text), { currency: 'EUR' });
    expect(r.file.errors).toEqual([
      { line: 2, row: null, field: null, message: '"Kontoauszug vom 02.03.2026" is outside any MT940 field' },
      { line: 9, row: 1, field: '61', message: '"2603020302CR" is not a statement line (:61:)' },
    ]);
  });
});

describe('MT940 as banks write it (issue 37)', () => {
  it('daily statements of one account concatenated, each :86: of a line a field of its own (Rabobank)', async () => {
    expect(parsed('mt940-daily-one-account.sta')).toEqual({
      format: 'mt940',
      errors: [],
      account: '3817.42.056EUR',
      balance: 'ok',
      rows: [
        [6, '2026-03-02', -8615, null, 'Terugboeking HUUR GARAGEBOX MAART KENMERK 2026-0331'],
        [10, '2026-03-02', 4000, null, 'CONTRIBUTIE TERUG'],
        [24, '2026-03-04', -1260, null, 'Betaalautomaat 08:12 pasnr. 014'],
      ],
    });
    // Imported into the account given, one batch, the three statements' balances checked in turn.
    const b = books();
    const r = await importFile(b, b.checking, read('mt940-daily-one-account.sta'), { fileName: 'rabo.sta' });
    expect(r.batches).toHaveLength(1);
    expect(r.batch.counts).toMatchObject({ created: 3 });
    expect(r.batch.balance?.status).toBe('ok');
    expect(accountRows(b, b.checking).map((x) => x.amount)).toEqual([-8615, 4000, -1260]);
  });

  it("Rabobank's daily statements of two accounts (the corpus file's shape): the account given is not guessed for either, and says why", async () => {
    const b = books();
    const bytes = read('mt940-daily-two-accounts.sta');
    const { preview } = await previewFile(b.db, b.team, b.checking, bytes, { fileName: 'rabo.sta' });
    expect(preview.statements.map((s) => [s.accountRef, s.bankAccountId])).toEqual([
      ['3817.42.056EUR', null],
      ['4402.17.930EUR', null],
    ]);
    expect(preview.warnings[0]).toBe(
      'The file holds statements of 2 accounts (3817.42.056EUR, 4402.17.930EUR): the account given for the file is used only when its statements all name one account; choose the account of each statement (accounts)',
    );
    const refused = await commitFile(b.db, b.team, b.checking, bytes, { fileName: 'rabo.sta' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportRefused);
    expect((refused as ImportRefused).problems.map((p) => p.field)).toEqual([
      'bankAccountId',
      'accounts.3817.42.056EUR',
      'accounts.4402.17.930EUR',
    ]);
    expect(accountRows(b, b.checking)).toEqual([]);
    // Each statement into the account chosen for it: the three days of the first as one, balances checked in turn.
    const accounts = { '3817.42.056EUR': b.checking, '4402.17.930EUR': b.savings };
    const done = await importFile(b, b.checking, bytes, { fileName: 'rabo.sta', accounts });
    expect(done.batches.map((x) => [x.bankAccountId, x.counts.created, x.balance?.status])).toEqual([
      [b.checking, 2, 'ok'],
      [b.savings, 2, 'ok'],
    ]);
    expect(accountRows(b, b.checking).map((x) => x.amount)).toEqual([-8615, -1260]);
    expect(accountRows(b, b.savings).map((x) => x.amount)).toEqual([-4250, 10000]);
  });

  it('SWIFT transmission characters around each message (SOH, ETX), CRLF and blank lines between them (mBank)', async () => {
    const r = parseBankFile(read('mt940-soh-etx.sta'), { currency: 'PLN' });
    expect(r.file.errors).toEqual([]);
    expect(r.file.accountRef).toBe('/PL61109010140000071219812874');
    expect(checkBalances(r.file, 'PLN').status).toBe('ok');
    expect(r.file.rows.map((x) => [x.line, x.date, x.amountMinor, x.details.bankReference])).toEqual([
      [6, '2026-03-03', -12050, 'MB26030312001'],
      [10, '2026-03-03', 150000, 'MB26030312044'],
      [22, '2026-03-04', -7950, 'MB26030412007'],
    ]);
    expect(r.file.rows[0]!.description).toBe(
      '877 PRZELEW ZEWNETRZNY; NA RACH.: 49102028920000550201423123; DLA: ZAKLAD WODOCIAGOW SP. Z O.O.; TYT.: FAKTURA 03/2026',
    );
    // SOH right before the first tag, on the same line.
    const joined = read('mt940-soh-etx.sta').toString('latin1').replace('\x01\r\n:20:', '\x01:20:');
    expect(parseBankFile(Buffer.from(joined, 'latin1'), { currency: 'PLN' }).file.errors).toEqual([]);
    const b = books();
    const pln = write(b.db, b.team, (w) =>
      w.insert('bank_account', { name: 'mBank', type: 'depository', currency: 'PLN', manual: 0 }),
    );
    const done = await importFile(b, pln, read('mt940-soh-etx.sta'), { fileName: 'mbank.sta' });
    expect(done.batch.counts).toMatchObject({ created: 3 });
    expect(done.batch.balance?.status).toBe('ok');
  });

  it('a funds code and a three-space transaction code (":61:…DF1830,00S   X"), the bank\'s :NS: fields (Sberbank, HUF)', async () => {
    const r = parseBankFile(read('mt940-non-swift.sta'), { currency: 'HUF' });
    expect(r.file.errors).toEqual([]);
    expect(checkBalances(r.file, 'HUF').status).toBe('ok');
    expect(r.file.rows.map((x) => [x.line, x.date, x.valueDate, x.amountMinor])).toEqual([
      [12, '2026-06-15', '2026-06-15', -183000],
      [21, '2026-06-15', '2026-06-15', 2500000],
    ]);
    expect(r.file.rows[0]!.details).toMatchObject({
      transactionType: 'S',
      customerReference: 'X',
      nonSwift: { '01': '418812', '09': 'Tranzakcios illetek: 5,49HUF', '15': 'Dunamenti Biztosito Zrt. Fo', '16': 'kepviselet' },
    });
    // As the Python mt940 package reads it: the :NS: text, its two-digit codes left out, where there is no :86:.
    expect(r.file.rows[1]!.description).toBe('522031 A20931512    20260612000100 Visszaterites Budai Konyveloiroda Kft.');
    const b = books();
    const huf = write(b.db, b.team, (w) =>
      w.insert('bank_account', { name: 'Sberbank', type: 'depository', currency: 'HUF', manual: 0 }),
    );
    const done = await importFile(b, huf, read('mt940-non-swift.sta'), { fileName: '260615_01700420.sta' });
    expect(done.batch.counts).toMatchObject({ created: 2 });
    expect(done.batch.balance?.status).toBe('ok');
  });
});

describe('OFX and camt as banks write them', () => {
  it('OFX 1.x values in CDATA sections (with "&" and "<" inside)', async () => {
    expect(parsed('ofx1-cdata.ofx')).toMatchObject({
      format: 'ofx',
      errors: [],
      account: '00012345678',
      rows: [
        [40, '2026-03-05', -2340, 'MONOPRIX PARIS 11 & CIE', 'CB MONOPRIX <04/03> PARIS'],
        [48, '2026-03-09', 125000, 'ATELIER DUVAL', 'VIR SEPA FACTURE 118'],
      ],
    });
  });

  it('camt.054 entries without a booking date: booked on the value date, and the row outcome says so', async () => {
    const b = books();
    const p = await preview(b, b.checking, read('camt054-no-booking-date.xml'));
    expect(p.rows.map((r) => [r.line, r.date, r.amount, r.outcome, r.reason])).toEqual([
      [15, '2026-03-04', 480, 'new', null],
      [29, '2026-03-05', -89.9, 'new', 'no booking date in the file: booked on the value date 2026-03-05'],
      [42, '2026-03-05', -12, 'new', 'no booking date in the file: booked on the value date 2026-03-05'],
    ]);
    const r = await importFile(b, b.checking, read('camt054-no-booking-date.xml'), { fileName: 'ntfctn.xml' });
    const rows = listBatchRows(b.db, b.team, r.batch.id, { limit: 10 }).data;
    expect(rows.map((x) => [x.outcome, x.reason])).toEqual([
      ['created', null],
      ['created', 'no booking date in the file: booked on the value date 2026-03-05'],
      ['created', 'no booking date in the file: booked on the value date 2026-03-05'],
    ]);
  });
});

describe('a camt batch entry split into its parts on request', () => {
  const camt = () => fs.readFileSync(path.resolve(FIXTURES, '../camt053-v08.xml'));

  it('one row per transaction detail, with its own amount, payee and id; the statement still adds up', async () => {
    const whole = parseBankFile(camt(), { currency: 'EUR' }).file;
    const batch = whole.rows.find((r) => r.externalId === 'ref:2026030200002')!;
    expect(batch).toMatchObject({ amountMinor: -321000, line: 50 });

    const split = parseBankFile(camt(), { currency: 'EUR', splitBatches: true }).file;
    expect(split.rows).toHaveLength(whole.rows.length + 1);
    expect(
      split.rows
        .filter((r) => r.externalId?.startsWith('ref:2026030200002'))
        .map((r) => [r.line, r.amountMinor, r.counterparty, r.description, r.externalId, r.details.batchPart]),
    ).toEqual([
      [
        64,
        -180000,
        'Anna Schmidt',
        'Gehalt 03/2026',
        'ref:2026030200002:1',
        { part: 1, of: 2, bookedAmount: -321000, entryId: 'ref:2026030200002' },
      ],
      [
        71,
        -141000,
        'Ben Weber',
        'Gehalt 03/2026',
        'ref:2026030200002:2',
        { part: 2, of: 2, bookedAmount: -321000, entryId: 'ref:2026030200002' },
      ],
    ]);
    expect(checkBalances(split, 'EUR').status).toBe('ok');
    expect(split.rows.map((r) => r.index)).toEqual(split.rows.map((_, i) => i));
  });

  it('keeps the entry whole, saying why, when its parts do not add up to the booking', async () => {
    const text = camt().toString().replace('<Amt Ccy="EUR">1410.00</Amt>', '<Amt Ccy="EUR">1400.00</Amt>');
    const rows = parseBankFile(Buffer.from(text), { currency: 'EUR', splitBatches: true }).file.rows;
    const kept = rows.find((r) => r.externalId === 'ref:2026030200002')!;
    expect(kept.note).toBe("the batch's parts add up to -3200.00, but -3210.00 was booked: kept as one row");
  });

  it('commits the parts as rows of their own, and a re-import with the option finds them again', async () => {
    const b = books();
    const first = await importFile(b, b.checking, camt(), { splitBatches: true, fileName: 'stmt.xml' });
    expect(first.batch.counts.created).toBe(7);
    const again = await importFile(b, b.checking, camt(), { splitBatches: true, allowReimport: true });
    expect(again.batch.counts).toMatchObject({ created: 0, duplicate: 7 });
  });
});

describe('never a crash for a bad file', () => {
  it('reads every fixture cut short, with lines dropped or bytes changed, without throwing; a bad currency is named', async () => {
    const root = path.resolve(FIXTURES, '..');
    const files = ['as-banks-write', 'statements', 'qif', 'banks'].flatMap((d) =>
      fs
        .readdirSync(path.join(root, d))
        .filter((f) => !f.endsWith('.md'))
        .map((f) => path.join(root, d, f)),
    );
    let seed = 28;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let runs = 0;
    for (const f of files) {
      const bytes = fs.readFileSync(f);
      const lines = bytes.toString('latin1').split('\n');
      const variants = [
        ...[1, 3, 5, 7, 9, 11].map((k) => bytes.subarray(0, Math.floor((bytes.length * k) / 12))),
        ...[0, 1, 2, 3, 4].map(() => Buffer.from(lines.filter(() => next() > 0.15).join('\n'), 'latin1')),
        ...[0, 1, 2, 3, 4].map(() => {
          const b = Buffer.from(bytes);
          for (let j = 0; j < 6; j++) b[Math.floor(next() * b.length)] = Math.floor(next() * 256);
          return b;
        }),
      ];
      for (const v of variants) {
        runs++;
        expect(() => parseBankFile(v, { filename: path.basename(f), currency: 'EUR', splitBatches: next() < 0.5 })).not.toThrow();
      }
    }
    expect(runs).toBeGreaterThan(400);
    const kur = read('mt940-wrapped-lines.sta').toString().replace(':60F:C260301EUR1000,00', ':60F:C260301KUR1000,00');
    expect(parseBankFile(Buffer.from(kur), { currency: 'EUR' }).file.errors[0]).toMatchObject({ line: 5, field: '60F' });
    const ofx = read('ofx1-cdata.ofx').toString().replace('<CURDEF>EUR', '<CURDEF>ZZZ');
    expect(parseBankFile(Buffer.from(ofx), { currency: 'EUR' }).file.errors[0]).toMatchObject({
      field: 'CURDEF',
      message: '"ZZZ" is not a currency code',
    });
  });
});
