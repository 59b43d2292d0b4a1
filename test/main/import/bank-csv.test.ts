import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBankFile } from '../../../src-main/import/parse-file';
import type { CsvColumn, CsvMapping } from '../../../src-shared/contract/import-mapping';

/**
 * The CSV exports of banks in Germany, Austria, Switzerland, France, the UK and the US (fixtures written from each
 * bank's published header set; test/fixtures/import/banks/README.md names the sources): the mapping each gets
 * without help, field by field — counterparty, description, amount, dates — and the first rows it reads. The
 * figures are printed for the lead's note.
 */
const FIXTURES = path.resolve(__dirname, '../../fixtures/import');

type Country = 'DE' | 'AT' | 'CH' | 'FR' | 'UK' | 'US';
/** date, amount in minor units, counterparty, description. */
type Row = [string, number, string | null, string | null];

interface Bank {
  bank: string;
  country: Country;
  file: string;
  currency: string;
  /** Booking date column, then value date column (or null). */
  dates: [string, string | null];
  /** "Betrag" for one signed column, "Debit | Credit" for two, "Bedrag by Af Bij" for an indicator. */
  amount: string;
  /** The counterparty column, with " | payer column" when money in names the payer elsewhere. */
  counterparty: string | null;
  description: string[];
  rows: Row[];
}

const BANKS: Bank[] = [
  {
    bank: 'DKB (until 2023)',
    country: 'DE',
    file: 'dkb-giro.csv',
    currency: 'EUR',
    dates: ['Buchungstag', 'Wertstellung'],
    amount: 'Betrag (EUR)',
    counterparty: 'Auftraggeber / Begünstigter',
    description: ['Verwendungszweck'],
    rows: [['2026-03-31', -8400, 'Stadtwerke München GmbH', 'Strom März 2026 – Vertrag 4471']],
  },
  {
    bank: 'DKB (2023 on)',
    country: 'DE',
    file: 'banks/de-dkb-2023.csv',
    currency: 'EUR',
    dates: ['Buchungsdatum', 'Wertstellung'],
    amount: 'Betrag (€)',
    counterparty: 'Zahlungsempfänger*in | Zahlungspflichtige*r',
    description: ['Verwendungszweck'],
    rows: [
      ['2026-03-31', -8400, 'Stadtwerke München GmbH', 'Strom März 2026'],
      ['2026-03-30', 357000, 'Kunde Nord GmbH', 'RE-2026-0312 Beratung'],
      ['2026-03-12', -2345, 'REWE Markt 4471', null],
    ],
  },
  {
    bank: 'Sparkasse (CSV-CAMT V2)',
    country: 'DE',
    file: 'banks/de-sparkasse-camt-v2.csv',
    currency: 'EUR',
    dates: ['Buchungstag', 'Valutadatum'],
    amount: 'Betrag',
    counterparty: 'Beguenstigter/Zahlungspflichtiger',
    description: ['Verwendungszweck'],
    rows: [
      ['2026-03-04', -4217, 'EDEKA Center Nord', '2026-03-03T18:22 Debitk.1 2028-12'],
      ['2026-03-05', 125000, 'Atelier Duval SARL', 'RE 2026-041 Danke'],
    ],
  },
  {
    bank: 'Volksbanken Raiffeisenbanken',
    country: 'DE',
    file: 'banks/de-volksbank.csv',
    currency: 'EUR',
    dates: ['Buchungstag', 'Valutadatum'],
    amount: 'Betrag',
    counterparty: 'Name Zahlungsbeteiligter',
    description: ['Verwendungszweck'],
    rows: [
      ['2026-03-02', -125000, 'Hausverwaltung Becker', 'Miete Büro März'],
      ['2026-03-06', 200000, 'Kunde Süd AG', 'RE 2026-022'],
    ],
  },
  {
    bank: 'ING Deutschland',
    country: 'DE',
    file: 'banks/de-ing.csv',
    currency: 'EUR',
    dates: ['Buchung', 'Wertstellungsdatum'],
    amount: 'Betrag',
    counterparty: 'Auftraggeber/Empfänger',
    description: ['Verwendungszweck'],
    rows: [
      ['2026-03-31', -8400, 'Stadtwerke Köln GmbH', 'Abschlag Strom 03/2026'],
      ['2026-03-28', -2345, 'REWE Markt GmbH', 'Kartenzahlung REWE SAGT DANKE'],
    ],
  },
  {
    bank: 'N26 (German)',
    country: 'DE',
    file: 'banks/de-n26.csv',
    currency: 'EUR',
    dates: ['Datum', null],
    amount: 'Betrag (EUR)',
    counterparty: 'Empfänger',
    description: ['Verwendungszweck'],
    rows: [
      ['2026-03-02', -999, 'Spotify AB', null],
      ['2026-03-05', 120000, 'Kunde Nord GmbH', 'RE-2026-0301'],
    ],
  },
  {
    bank: 'Postbank',
    country: 'DE',
    file: 'banks/de-postbank.csv',
    currency: 'EUR',
    dates: ['Buchungsdatum', 'Wertstellung'],
    amount: 'Betrag (€)',
    counterparty: 'Empfänger | Auftraggeber',
    description: ['Buchungsdetails'],
    rows: [
      ['2026-03-31', -9500, 'E.ON Energie Deutschland GmbH', 'Referenz 0123 Mandat 77 Abschlag Gas März'],
      ['2026-03-20', 80000, 'Kunde West KG', 'Rechnung 2026-019'],
    ],
  },
  {
    bank: 'Erste Bank / Sparkassen (George)',
    country: 'AT',
    file: 'banks/at-george.csv',
    currency: 'EUR',
    dates: ['Buchungsdatum', 'Valutadatum'],
    amount: 'Betrag',
    counterparty: 'Partnername',
    description: ['Buchungstext'],
    rows: [
      ['2026-03-03', -3420, 'BILLA AG', 'Bezahlung Karte MC/000001234 BILLA DANKT 0123 WIEN'],
      ['2026-03-05', 120000, 'Kunde Nord GmbH', 'RE-2026-0301'],
    ],
  },
  {
    bank: 'Raiffeisen (ELBA, no header row)',
    country: 'AT',
    file: 'banks/at-raiffeisen-elba.csv',
    currency: 'EUR',
    dates: ['column 1', null],
    amount: 'column 4',
    counterparty: null,
    description: ['column 2'],
    rows: [['2026-03-03', -3420, null, 'Bezahlung Karte MC/000001234 BILLA DANKT 0123 WIEN 1100']],
  },
  {
    bank: 'PostFinance',
    country: 'CH',
    file: 'banks/ch-postfinance.csv',
    currency: 'CHF',
    dates: ['Buchungsdatum', 'Valuta'],
    amount: 'Lastschrift in CHF | Gutschrift in CHF',
    counterparty: null,
    description: ['Avisierungstext'],
    rows: [
      ['2026-03-31', -4580, null, 'KAUF/DIENSTLEISTUNG VOM 30.03.2026 KARTEN NR. XXXX1234 MIGROS M ZUERICH'],
      ['2026-03-25', 120000, null, 'GIRO AUS KONTO CH12 0900 0000 1234 5678 9 MUSTER AG MITTEILUNGEN: RECHNUNG 2026-17'],
    ],
  },
  {
    bank: 'UBS',
    country: 'CH',
    file: 'banks/ch-ubs.csv',
    currency: 'CHF',
    dates: ['Booking date', 'Value date'],
    amount: 'Debit | Credit',
    counterparty: null,
    description: ['Description1', 'Description2', 'Description3'],
    rows: [['2026-03-02', -110000, null, 'Immobilien AG, Bahnhofstrasse 1, 8001 Zürich e-banking Order Miete März 2026']],
  },
  {
    bank: 'Zürcher Kantonalbank',
    country: 'CH',
    file: 'banks/ch-zkb.csv',
    currency: 'CHF',
    dates: ['Datum', 'Valuta'],
    amount: 'Belastung CHF | Gutschrift CHF',
    counterparty: null,
    description: ['Buchungstext', 'Zahlungszweck', 'Details'],
    rows: [
      ['2026-03-02', -5230, null, 'Einkauf ZKB Visa Debit Karte Nr. xxxx 1234, Migros Zürich'],
      ['2026-03-09', 150000, null, 'Gutschrift: Muster AG Rechnung 2026-17'],
    ],
  },
  {
    bank: 'BNP Paribas',
    country: 'FR',
    file: 'bnp.csv',
    currency: 'EUR',
    dates: ['Date', null],
    amount: 'Débit euros | Crédit euros',
    counterparty: null,
    description: ['Libellé'],
    rows: [['2026-03-05', -4999, null, 'PRLV SEPA ORANGE SA']],
  },
  {
    bank: 'Société Générale',
    country: 'FR',
    file: 'banks/fr-societe-generale.csv',
    currency: 'EUR',
    dates: ["Date de l'opération", null],
    amount: "Montant de l'opération",
    counterparty: null,
    description: ['Libellé', "Détail de l'écriture"],
    rows: [
      ['2026-03-05', -2340, null, 'CARTE X1234 04/03 MONOPRIX CARTE X1234 04/03 MONOPRIX PARIS 11'],
      ['2026-03-09', 125000, null, 'VIR RECU 1234567 VIR RECU DE: ATELIER DUVAL MOTIF: FACTURE 118'],
    ],
  },
  {
    bank: 'BoursoBank (Boursorama)',
    country: 'FR',
    file: 'banks/fr-boursorama.csv',
    currency: 'EUR',
    dates: ['dateOp', 'dateVal'],
    amount: 'amount',
    counterparty: 'supplierFound',
    description: ['label'],
    rows: [['2026-03-04', -2340, 'monoprix', 'CARTE 03/03/26 MONOPRIX CB*1234']],
  },
  {
    bank: 'N26 (French)',
    country: 'FR',
    file: 'banks/fr-n26.csv',
    currency: 'EUR',
    dates: ['Date', null],
    amount: 'Montant (EUR)',
    counterparty: 'Bénéficiaire',
    description: ['Référence de paiement'],
    rows: [
      ['2026-03-02', -999, 'Spotify AB', null],
      ['2026-03-05', 125000, 'Atelier Duval', 'Facture 118'],
    ],
  },
  {
    bank: 'Starling',
    country: 'UK',
    file: 'banks/uk-starling.csv',
    currency: 'GBP',
    dates: ['Date', null],
    amount: 'Amount (GBP)',
    counterparty: 'Counter Party',
    description: ['Reference', 'Notes'],
    rows: [['2026-03-03', -1829, 'Tesco', 'TESCO STORES 2291']],
  },
  {
    bank: 'Monzo',
    country: 'UK',
    file: 'banks/uk-monzo.csv',
    currency: 'GBP',
    dates: ['Date', null],
    amount: 'Amount',
    counterparty: 'Name',
    description: ['Description'],
    rows: [
      ['2026-03-03', -450, 'Pret A Manger', 'PRET A MANGER LONDON GBR'],
      ['2026-03-05', 125000, 'Acme Ltd', 'INV 2207'],
    ],
  },
  {
    bank: 'Nationwide',
    country: 'UK',
    file: 'banks/uk-nationwide.csv',
    currency: 'GBP',
    dates: ['Date', null],
    amount: 'Paid out | Paid in',
    counterparty: null,
    description: ['Description'],
    rows: [
      ['2026-03-03', -1829, null, 'TESCO STORES 2291'],
      ['2026-03-05', 25000, null, 'ACME LTD INV 2207'],
    ],
  },
  {
    bank: 'Lloyds',
    country: 'UK',
    file: 'lloyds.csv',
    currency: 'GBP',
    dates: ['Transaction Date', null],
    amount: 'Debit Amount | Credit Amount',
    counterparty: null,
    description: ['Transaction Description'],
    rows: [['2026-03-31', -6250, null, 'BRITISH GAS']],
  },
  {
    bank: 'Chase',
    country: 'US',
    file: 'chase.csv',
    currency: 'USD',
    dates: ['Posting Date', null],
    amount: 'Amount',
    counterparty: null,
    description: ['Description'],
    rows: [['2026-03-28', -4217, null, 'AMAZON MKTPL*2K4LL1QX2 Amzn.com/bill WA']],
  },
  {
    bank: 'U.S. Bank',
    country: 'US',
    file: 'banks/us-usbank.csv',
    currency: 'USD',
    dates: ['Date', null],
    amount: 'Amount',
    counterparty: 'Name',
    description: ['Memo'],
    rows: [['2026-03-02', -8412, 'COSTCO WHSE #0123', 'Download from usbank.com. COSTCO WHSE #0123 SEATTLE WA']],
  },
  {
    bank: 'Capital One',
    country: 'US',
    file: 'banks/us-capital-one.csv',
    currency: 'USD',
    dates: ['Posted Date', null],
    amount: 'Debit | Credit',
    counterparty: null,
    description: ['Description'],
    rows: [
      ['2026-03-02', -4217, null, 'AMAZON.COM*2K4LL1QX2'],
      ['2026-03-05', 50000, null, 'CAPITAL ONE MOBILE PYMT'],
    ],
  },
  {
    bank: 'Bank of America',
    country: 'US',
    file: 'banks/us-bank-of-america.csv',
    currency: 'USD',
    dates: ['Date', null],
    amount: 'Amount',
    counterparty: null,
    description: ['Description'],
    rows: [['2026-03-03', -8412, null, "TRADER JOE'S #552 03/02 PURCHASE SEATTLE WA"]],
  },
];

const name = (c: CsvColumn | null) => (c ? (c.header ?? `column ${c.index + 1}`) : null);

function amountSpec(m: CsvMapping): string {
  if (m.amount.kind === 'split') return `${name(m.amount.debit)} | ${name(m.amount.credit)}`;
  if (m.amount.kind === 'indicator') return `${name(m.amount.column)} by ${name(m.amount.indicator)}`;
  return name(m.amount.column)!;
}

/** What the parser got for a bank, field by field, in the shape of the expectation. */
function got(b: Bank) {
  const r = parseBankFile(fs.readFileSync(path.join(FIXTURES, b.file)), { filename: b.file, currency: b.currency });
  const m = r.file.mapping as CsvMapping | null;
  const rows = r.file.rows.slice(0, b.rows.length);
  return {
    errors: r.file.errors,
    dates: m ? [[name(m.date), name(m.valueDate)], rows.map((x) => x.date)] : null,
    amount: m ? [amountSpec(m), rows.map((x) => x.amountMinor)] : null,
    counterparty: m
      ? [[name(m.counterparty), name(m.payer)].filter(Boolean).join(' | ') || null, rows.map((x) => x.counterparty)]
      : null,
    description: m ? [m.description.map(name), rows.map((x) => x.description)] : null,
  };
}

function expected(b: Bank) {
  return {
    errors: [],
    dates: [b.dates, b.rows.map((x) => x[0])],
    amount: [b.amount, b.rows.map((x) => x[1])],
    counterparty: [b.counterparty, b.rows.map((x) => x[2])],
    description: [b.description, b.rows.map((x) => x[3])],
  };
}

const FIELDS = ['counterparty', 'description', 'amount', 'dates'] as const;
const results: { bank: Bank; right: number; wrong: string[] }[] = [];

describe('the CSV exports of banks in six countries', () => {
  for (const b of BANKS) {
    it(`${b.country} ${b.bank}: counterparty, description, amount and dates`, () => {
      const g = got(b);
      const e = expected(b);
      const wrong = FIELDS.filter((f) => JSON.stringify(g[f]) !== JSON.stringify(e[f]));
      results.push({ bank: b, right: g.errors.length ? 0 : FIELDS.length - wrong.length, wrong: [...wrong] });
      expect(g).toEqual(e);
    });
  }

  it('names a card payment after the shop, not after its payment reference (the header set of the issue)', () => {
    const file = Buffer.from(
      'Buchungstag;Valuta;Auftraggeber/Empfänger;Verwendungszweck;Betrag;Währung\n' +
        '02.03.2026;02.03.2026;REWE Markt 4471;Kartenzahlung;-23,45;EUR\n' +
        '03.03.2026;03.03.2026;Kunde Nord GmbH;RE-2026-0301;1.200,00;EUR\n',
    );
    const r = parseBankFile(file, { currency: 'EUR' });
    expect(r.file.mapping).toMatchObject({ counterparty: { header: 'Auftraggeber/Empfänger' }, valueDate: { header: 'Valuta' } });
    expect(r.file.rows.map((x) => [x.name, x.counterparty, x.description])).toEqual([
      ['REWE Markt 4471', 'REWE Markt 4471', 'Kartenzahlung'],
      ['Kunde Nord GmbH', 'Kunde Nord GmbH', 'RE-2026-0301'],
    ]);
  });

  it('covers at least 15 banks across Germany, Austria, Switzerland, France, the UK and the US', () => {
    const countries = new Set(BANKS.map((b) => b.country));
    expect(BANKS.length).toBeGreaterThanOrEqual(15);
    expect([...countries].sort()).toEqual(['AT', 'CH', 'DE', 'FR', 'UK', 'US']);
  });

  afterAll(() => {
    const byCountry = [...new Set(BANKS.map((b) => b.country))]
      .map((c) => `${c} ${BANKS.filter((b) => b.country === c).length}`)
      .join(', ');
    const recognised = results.filter((r) => r.right === FIELDS.length).length;
    const right = results.reduce((n, r) => n + r.right, 0);
    const lines = [
      `bank CSV table: ${recognised}/${BANKS.length} banks recognised (${byCountry}); ${right}/${BANKS.length * FIELDS.length} fields right (counterparty, description, amount, dates)`,
      ...results.filter((r) => r.wrong.length).map((r) => `  ${r.bank.country} ${r.bank.bank}: wrong ${r.wrong.join(', ')}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  });
});
