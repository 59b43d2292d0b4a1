/**
 * What a CSV export's header names (docs/decisions/0061, 0068): each column's role read from its header text in the
 * languages of the banks we import from (German, English, French, Dutch, Spanish), with the spellings banks really
 * use — "Auftraggeber/Empfänger", "Beguenstigter/Zahlungspflichtiger" (Sparkasse writes umlauts out),
 * "Zahlungsempfänger*in", "Name Zahlungsbeteiligter", "Counter Party", "Libellé", "Bénéficiaire". The fixtures under
 * test/fixtures/import/banks name the header set of each bank this is checked against.
 */

const HEADER_CHARS = 200;

/**
 * Header text → words: accents folded, German transliterations (ae, oe, ue) folded the same way, parentheses and
 * their content dropped ("Betrag (EUR)"), split on anything but letters and digits, so "Auftraggeber/Empfänger",
 * "Zahlungsempfänger*in" and "Partner IBAN" become word lists.
 */
export function headerWords(header: string, withParentheses = false): string[] {
  // A header is a few words: past HEADER_CHARS it is not one (and nothing below ever reads more).
  const folded = header
    .slice(0, HEADER_CHARS)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss');
  return (withParentheses ? folded : folded.replace(/\([^()]*\)/g, ' '))
    .replace(/([aou])e/g, '$1')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export const normHeader = (header: string) => headerWords(header).join(' ');

export type Role =
  | 'valueDate'
  | 'date'
  | 'indicator'
  | 'debit'
  | 'credit'
  | 'amount'
  | 'balance'
  | 'counterparty'
  | 'reference'
  | 'currency'
  | 'status';

interface RoleWords {
  /** Phrases naming the role, most specific first. */
  words: readonly string[];
  /** A header holding one of these words is not the role, whatever else it says ("Partner IBAN", "Local amount"). */
  not?: readonly string[];
}

const ACCOUNT_WORDS = ['iban', 'bic', 'swift', 'blz', 'konto', 'kontonummer', 'auftragskonto', 'account', 'number', 'nummer'];

/** Roles in the order they pick their column (a column goes to the first role that names it). */
const ROLES: Record<Role, RoleWords> = {
  valueDate: {
    words: [
      'wertstellung',
      'valuta',
      'valutadatum',
      'wertstellungsdatum',
      'value date',
      'date de valeur',
      'date valeur',
      'dateval',
    ],
    not: [],
  },
  date: {
    words: [
      'buchungstag',
      'buchungsdatum',
      'buchung',
      'booking date',
      'booked at',
      'posting date',
      'posted date',
      'post date',
      'completed date',
      'transaction date',
      'trans date',
      'date de l operation',
      'date operation',
      'dateop',
      'date',
      'datum',
      'fecha',
      'data',
    ],
    not: ['valeur', 'value', 'valuta', 'wert'],
  },
  indicator: {
    words: ['af bij', 'soll haben', 's h', 'debit credit', 'dr cr', 'cr dr', 'credit debit'],
    not: ['amount', 'betrag'],
  },
  debit: {
    words: [
      'debit amount',
      'debit',
      'soll',
      'withdrawals',
      'withdrawal',
      'paid out',
      'money out',
      'ausgang',
      'belastung',
      'lastschrift',
      'cargo',
    ],
    not: ['ursprungsbetrag'],
  },
  credit: {
    words: ['credit amount', 'credit', 'haben', 'deposits', 'deposit', 'paid in', 'money in', 'eingang', 'gutschrift', 'abono'],
  },
  amount: {
    words: ['betrag', 'amount', 'montant', 'importe', 'bedrag', 'umsatz', 'transaction amount', 'value'],
    not: [
      'original',
      'local',
      'fremdwahrung',
      'foreign',
      'etrangere',
      'ursprungsbetrag',
      'individual',
      'detail',
      'fee',
      'date',
      'balance',
      'saldo',
    ],
  },
  balance: {
    words: ['saldo', 'balance', 'kontostand', 'solde', 'running balance', 'running bal'],
    not: ['available', 'verfugbar', 'accountbalance'],
  },
  counterparty: {
    words: [
      'auftraggeber begunstigter',
      'begunstigter auftraggeber',
      'begunstigter zahlungspflichtiger',
      'auftraggeber empfanger',
      'name zahlungsbeteiligter',
      'zahlungsbeteiligter',
      'zahlungsempfanger',
      'empfanger',
      'empfangername',
      'begunstigter',
      'partnername',
      'partner name',
      'counter party',
      'counterparty',
      'counterparty name',
      'payee',
      'beneficiaire',
      'beneficiary',
      'supplierfound',
      'merchant',
      'tiers',
      'naam',
      'name',
      'nom',
      'auftraggeber',
      'zahlungspflichtige',
      'zahlungspflichtiger',
      'payer',
    ],
    not: [
      ...ACCOUNT_WORDS,
      'id',
      'code',
      'card',
      'karte',
      'bank',
      'rekening',
      'compte',
      'type',
      'category',
      'kategorie',
      'address',
      'adresse',
    ],
  },
  reference: {
    words: [
      'transaction id',
      'transaktions id',
      'transaktionsid',
      'transaktions nr',
      'transaction no',
      'fitid',
      'bank reference',
      'buchungsreferenz',
      'unique id',
      'id',
    ],
    not: ['glaubiger', 'mandat', 'kunden', 'creditor'],
  },
  currency: {
    words: ['currency', 'wahrung', 'devise', 'moneda', 'whg', 'ccy'],
    not: ['original', 'local', 'fremdwahrung', 'foreign', 'etrangere', 'type'],
  },
  status: { words: ['status', 'state'] },
};

/**
 * Description columns in two tiers: every column of the first tier the file has is joined; the second tier counts
 * only when the file has none of the first ("Buchungstext" is the posting type beside a "Verwendungszweck", but the
 * whole text where it stands alone).
 */
const DESCRIPTION_TIERS: readonly (readonly string[])[] = [
  [
    'verwendungszweck',
    'transaction description',
    'description',
    'description1',
    'description2',
    'description3',
    'beschreibung1',
    'beschreibung2',
    'beschreibung3',
    'memo',
    'narrative',
    'libelle',
    'detail de l ecriture',
    'omschrijving',
    'mededelingen',
    'purpose',
    'payment details',
    'payment reference',
    'reference de paiement',
    'buchungsdetails',
    'avisierungstext',
    'label',
    'concepto',
  ],
  ['buchungstext', 'zahlungszweck', 'reference', 'details', 'text', 'notes'],
];

/** Words saying a party column names only the payee (money out) or only the payer (money in). */
const PAYEE = new Set([
  'empfanger',
  'zahlungsempfanger',
  'empfangername',
  'begunstigter',
  'payee',
  'beneficiary',
  'beneficiaire',
]);
const PAYER = new Set(['auftraggeber', 'zahlungspflichtige', 'zahlungspflichtiger', 'payer', 'zahler']);

const normalised = (list: readonly string[]) => list.map(normHeader);
const PREPARED = Object.fromEntries(
  Object.entries(ROLES).map(([role, r]) => [role, { words: normalised(r.words), not: new Set(normalised(r.not ?? [])) }]),
) as Record<Role, { words: string[]; not: Set<string> }>;
const TIERS = DESCRIPTION_TIERS.map(normalised);

/**
 * How plainly a header names one of the phrases: 100 − rank for the whole header, 50 − rank for a part of it, else 0
 * (also 0 when any of its words, parentheses included, is one the role excludes).
 */
function phraseScore(header: Header, phrases: readonly string[], not: ReadonlySet<string> = new Set()): number {
  if (header.all.some((w) => not.has(w))) return 0;
  const h = header.words.join(' ');
  for (let i = 0; i < phrases.length; i++) {
    const p = phrases[i]!;
    if (h === p) return 100 - i;
    if (p.length > 2 && ` ${h} `.includes(` ${p} `)) return 50 - i;
  }
  return 0;
}

export interface HeaderRoles {
  roles: Partial<Record<Role, number>>;
  /** Money in: the counterparty is in this column (exports with separate payer and payee columns). */
  payer: number | null;
  description: number[];
}

/** The columns a header row names, each column at most one role. */
interface Header {
  words: string[];
  all: string[];
}

export function rolesFromHeaders(headers: readonly string[]): HeaderRoles {
  const words: Header[] = headers.map((h) => ({ words: headerWords(h), all: headerWords(h, true) }));
  const taken = new Set<number>();
  const roles: Partial<Record<Role, number>> = {};
  for (const role of Object.keys(ROLES) as Role[]) {
    let best = -1;
    let score = 0;
    words.forEach((w, i) => {
      if (taken.has(i)) return;
      const s = phraseScore(w, PREPARED[role].words, PREPARED[role].not);
      if (s > score) {
        score = s;
        best = i;
      }
    });
    if (best >= 0) {
      roles[role] = best;
      taken.add(best);
    }
  }

  // Separate payer and payee columns (DKB's "Zahlungspflichtige*r" / "Zahlungsempfänger*in", Postbank's "Auftraggeber"
  // / "Empfänger"): the counterparty is the payee for money out and the payer for money in.
  let payer: number | null = null;
  const side = (i: number) => {
    const ws = words[i]!.words;
    const payee = ws.some((w) => PAYEE.has(w));
    const pays = ws.some((w) => PAYER.has(w));
    return payee && !pays ? 'payee' : pays && !payee ? 'payer' : 'both';
  };
  if (roles.counterparty !== undefined && side(roles.counterparty) !== 'both') {
    const other = words.findIndex(
      (w, i) =>
        !taken.has(i) &&
        side(i) !== 'both' &&
        side(i) !== side(roles.counterparty!) &&
        phraseScore(w, PREPARED.counterparty.words, PREPARED.counterparty.not) > 0,
    );
    if (other >= 0) {
      const [payee, pays] = side(roles.counterparty) === 'payee' ? [roles.counterparty, other] : [other, roles.counterparty];
      roles.counterparty = payee;
      payer = pays;
      taken.add(other);
    }
  }

  let description: number[] = [];
  for (const tier of TIERS) {
    description = words.flatMap((w, i) => (!taken.has(i) && phraseScore(w, tier) >= 100 - tier.length ? [i] : []));
    if (description.length === 0) {
      // A header naming a description word among others ("Transaction Description (EUR)", "Détail de l'écriture").
      const partial = words
        .map((w, i) => ({ i, s: taken.has(i) ? 0 : phraseScore(w, tier) }))
        .filter((d) => d.s > 0)
        .sort((a, b) => b.s - a.s)[0];
      if (partial) description = [partial.i];
    }
    if (description.length > 0) break;
  }
  return { roles, payer, description };
}
