/**
 * The EN 16931 business rules that apply to what we issue, and the rules the formats' CIUS add (XRechnung BR-DE,
 * Peppol BIS). Each rule is one pure function of the model that names its rule id and the business term it
 * concerns; `checkEInvoice` runs the ones of a format. A failing invoice is not issued (422 listing each failure).
 * The list of rules covered and not covered: docs/decisions/0160-e-invoices.md. Pure.
 */
import { currencyExponent, isCurrencyCode } from '../../money';
import { SCHEME_CHECKS, schemeIdentifierProblem } from '../../validation/identifier-check-digits';
import { checkPeppolId } from '../../validation/peppol-schemes';
import { roundDiv } from '../exact';
import { scaledDecimal } from '../invoice-amounts';
import type { Cius, EInvoice, Party, VatCategory } from './model';

export interface RuleFailure {
  /** The rule's identifier: BR-xx, BR-CO-xx, BR-S-xx…, BR-DE-xx, PEPPOL-EN16931-Rxxx, or FD-xx for our own. */
  rule: string;
  /** The business term (BT-n / BG-n) and where it comes from in our data. */
  field: string;
  message: string;
}

export interface Rule {
  id: string;
  /** Which CIUS add this rule; undefined: EN 16931 itself (every format). */
  cius?: readonly Cius[];
  check(invoice: EInvoice): Omit<RuleFailure, 'rule'>[];
}

type Finding = Omit<RuleFailure, 'rule'>;
const fail = (field: string, message: string): Finding[] => [{ field, message }];
const ok: Finding[] = [];
const blank = (v: string | null | undefined) => !v?.trim();

function rule(id: string, check: (inv: EInvoice) => Finding[], cius?: readonly Cius[]): Rule {
  return cius ? { id, check, cius } : { id, check };
}

/** A required business term: fails with `message` when `value` is blank. */
function required(
  id: string,
  field: string,
  value: (inv: EInvoice) => string | null | undefined,
  message: string,
  cius?: readonly Cius[],
) {
  return rule(id, (inv) => (blank(value(inv)) ? fail(field, message) : ok), cius);
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The document totals (BG-22) and what each must add up to: each row names its rule, its field, its message and
 * `[stated, computed]`; a rule fails when they differ.
 */
function totalsRules(
  rows: readonly [id: string, field: string, message: string, figures: (inv: EInvoice) => [number, number]][],
): Rule[] {
  return rows.map(([id, field, message, figures]) =>
    rule(id, (inv) => {
      const [stated, computed] = figures(inv);
      return stated !== computed ? fail(field, message) : ok;
    }),
  );
}

/** Σ document-level allowances (charge false) or charges (charge true). */
const sumAllowancesCharges = (inv: EInvoice, charge: boolean) =>
  sum(inv.allowancesCharges.filter((a) => a.charge === charge).map((a) => a.amountMinor));

/** VAT of a taxable amount at a rate, rounded half away from zero to the minor unit. */
export function vatOf(taxableMinor: number, rate: number): number {
  const r = scaledDecimal(rate, 4) ?? 0n;
  return Number(roundDiv(BigInt(taxableMinor) * r, 1_000_000n));
}

/** Σ line nets − allowances + charges of one category and rate: what its breakdown's taxable amount must be. */
function expectedTaxable(inv: EInvoice, category: VatCategory, rate: number): number {
  const lines = sum(inv.lines.filter((l) => l.category === category && l.rate === rate).map((l) => l.netMinor));
  const ac = inv.allowancesCharges.filter((a) => a.category === category && a.rate === rate);
  return (
    lines - sum(ac.filter((a) => !a.charge).map((a) => a.amountMinor)) + sum(ac.filter((a) => a.charge).map((a) => a.amountMinor))
  );
}

const usesCategory = (inv: EInvoice, c: VatCategory) =>
  inv.lines.some((l) => l.category === c) || inv.allowancesCharges.some((a) => a.category === c);

const NAMES: Record<VatCategory, string> = {
  S: 'Standard rated',
  Z: 'Zero rated',
  E: 'Exempt from VAT',
  AE: 'Reverse charge',
  K: 'Intra-community supply',
  G: 'Export outside the EU',
  O: 'Not subject to VAT',
  L: 'Canary Islands tax',
  M: 'Ceuta and Melilla tax',
};

/**
 * The rules every category repeats with its own number (BR-S-01, BR-Z-01…): the breakdown exists, the seller has a
 * VAT id, the rate is as the category demands, the taxable amount and the tax add up, the exemption reason is there
 * or absent.
 */
function categoryRules(c: 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G'): Rule[] {
  // The intra-community supply rules are numbered BR-IC-nn, the others after their category.
  const p = c === 'K' ? 'BR-IC' : `BR-${c}`;
  const buyerIdNeeded = c === 'AE' || c === 'K';
  // S, Z, E and AE accept the seller's tax registration id (BT-32) in place of its VAT id; K and G do not.
  const taxIdSuffices = c !== 'K' && c !== 'G';
  const label = `${NAMES[c]} (${c})`;
  const exempt = c !== 'S' && c !== 'Z';
  return [
    rule(`${p}-01`, (inv) =>
      usesCategory(inv, c) && !inv.vatBreakdown.some((b) => b.category === c)
        ? fail('BG-23 vatBreakdown', `An invoice with ${label} lines must have a ${label} VAT breakdown`)
        : ok,
    ),
    rule(`${p}-02`, (inv) => {
      if (!usesCategory(inv, c)) return ok;
      if (blank(inv.seller.vatId) && !(taxIdSuffices && !blank(inv.seller.taxRegistrationId))) {
        return fail(
          'BT-31 team.vatNumber',
          taxIdSuffices
            ? `An invoice with ${label} lines must state the seller's VAT identifier or tax number (the team's VAT number or tax number)`
            : `An invoice with ${label} lines must state the seller's VAT identifier (the team's VAT number)`,
        );
      }
      return buyerIdNeeded && blank(inv.buyer.vatId) && blank(inv.buyer.legalId)
        ? fail('BT-48 customer.vatNumber', `An invoice with ${label} lines must state the buyer's VAT identifier`)
        : ok;
    }),
    rule(`${p}-05`, (inv) => {
      const bad = inv.lines.find((l) => l.category === c && (c === 'S' ? l.rate <= 0 : l.rate !== 0));
      return bad
        ? fail(
            `BT-152 lineItems.${Number(bad.id) - 1}.vat`,
            c === 'S' ? `A ${label} line must have a VAT rate above 0` : `A ${label} line must have a VAT rate of 0`,
          )
        : ok;
    }),
    rule(`${p}-08`, (inv) => {
      const bad = inv.vatBreakdown.find((b) => b.category === c && b.taxableMinor !== expectedTaxable(inv, c, b.rate));
      return bad
        ? fail(
            'BT-116 vatBreakdown.taxableAmount',
            `The ${label} taxable amount at ${bad.rate} % must equal its lines' net amounts less allowances plus charges`,
          )
        : ok;
    }),
    rule(`${p}-09`, (inv) => {
      const bad = inv.vatBreakdown.find(
        (b) => b.category === c && b.taxMinor !== (c === 'S' ? vatOf(b.taxableMinor, b.rate) : 0),
      );
      if (!bad) return ok;
      return c === 'S'
        ? fail(
            'BT-117 vat',
            `The VAT at ${bad.rate} % must be the taxable amount × the rate; the invoice's VAT was computed before its discount (decision 0071): give the discount as a negative line instead`,
          )
        : fail('BT-117 vat', `The VAT of a ${label} breakdown must be 0`);
    }),
    rule(`${p}-10`, (inv) => {
      const bad = inv.vatBreakdown.find(
        (b) =>
          b.category === c &&
          (exempt
            ? blank(b.exemptionReason) && blank(b.exemptionReasonCode)
            : !blank(b.exemptionReason) || !blank(b.exemptionReasonCode)),
      );
      if (!bad) return ok;
      return exempt
        ? fail('BT-120 template.vatExemptionReason', `A ${label} breakdown must state the exemption reason (text or VATEX code)`)
        : fail('BT-120 template.vatExemptionReason', `A ${label} breakdown must not state an exemption reason`);
    }),
  ];
}

function vatIdPrefix(who: 'seller' | 'buyer', inv: EInvoice): Finding[] {
  const vat = (who === 'seller' ? inv.seller : inv.buyer).vatId;
  if (blank(vat) || /^[A-Z]{2}/.test(vat ?? '')) return ok;
  return fail(
    who === 'seller' ? 'BT-31 team.vatNumber' : 'BT-48 customer.vatNumber',
    `The ${who}'s VAT identifier must begin with its ISO 3166 country code (e.g. DE123456789), got ${vat}`,
  );
}

const TOTAL_DECIMALS = 2;

function addressRules(prefix: 'seller' | 'buyer', ids: { address: string; country: string }): Rule[] {
  const who = (inv: EInvoice): Party => inv[prefix];
  const source = prefix === 'seller' ? 'team' : 'customer';
  return [
    rule(ids.address, (inv) => {
      const a = who(inv).address;
      return blank(a.line1) && blank(a.city) && blank(a.postCode) && blank(a.countryCode)
        ? fail(`${prefix === 'seller' ? 'BG-5' : 'BG-8'} ${source}.address`, `The ${prefix}'s postal address is missing`)
        : ok;
    }),
    required(
      ids.country,
      `${prefix === 'seller' ? 'BT-40' : 'BT-55'} ${source}.countryCode`,
      (inv) => who(inv).address.countryCode,
      `The ${prefix}'s country code is missing`,
    ),
  ];
}

export const RULES: readonly Rule[] = [
  required('BR-02', 'BT-1 invoiceNumber', (inv) => inv.number, 'An invoice must have a number'),
  required('BR-03', 'BT-2 issueDate', (inv) => inv.issueDate, 'An invoice must have an issue date'),
  required('BR-04', 'BT-3 typeCode', (inv) => inv.typeCode, 'An invoice must have a type code'),
  required('BR-05', 'BT-5 currency', (inv) => inv.currency, 'An invoice must have a currency code'),
  required('BR-06', 'BT-27 team.name', (inv) => inv.seller.name, "The seller's name is missing"),
  required('BR-07', 'BT-44 customer.name', (inv) => inv.buyer.name, "The buyer's name is missing"),
  ...addressRules('seller', { address: 'BR-08', country: 'BR-09' }),
  ...addressRules('buyer', { address: 'BR-10', country: 'BR-11' }),
  rule('BR-16', (inv) => (inv.lines.length === 0 ? fail('BG-25 lineItems', 'An invoice must have at least one line') : ok)),
  rule('BR-21', (inv) =>
    inv.lines.some((l) => blank(l.id)) ? fail('BT-126 lineItems', 'Every line must have an identifier') : ok,
  ),
  rule('BR-22', (inv) => {
    const bad = inv.lines.findIndex((l) => !Number.isFinite(l.quantity));
    return bad >= 0 ? fail(`BT-129 lineItems.${bad}.quantity`, 'Every line must have a quantity') : ok;
  }),
  rule('BR-23', (inv) => {
    const bad = inv.lines.findIndex((l) => blank(l.unitCode));
    return bad >= 0 ? fail(`BT-130 lineItems.${bad}.unit`, 'Every line must have a unit of measure code') : ok;
  }),
  rule('BR-25', (inv) => {
    const bad = inv.lines.findIndex((l) => blank(l.name));
    return bad >= 0 ? fail(`BT-153 lineItems.${bad}.name`, 'Every line must have an item name') : ok;
  }),
  rule('BR-27', (inv) => {
    const bad = inv.lines.findIndex((l) => l.priceMinor < 0);
    return bad >= 0
      ? fail(
          `BT-146 lineItems.${bad}.price`,
          'An item net price must not be negative: give a credit line a negative quantity instead',
        )
      : ok;
  }),
  rule('BR-CO-04', (inv) => {
    const bad = inv.lines.findIndex((l) => blank(l.category));
    return bad >= 0 ? fail(`BT-151 lineItems.${bad}.vat`, 'Every line must have a VAT category') : ok;
  }),
  rule('BR-CO-09', (inv) => [...vatIdPrefix('seller', inv), ...vatIdPrefix('buyer', inv)]),
  ...totalsRules([
    [
      'BR-CO-10',
      'BT-106 subtotal',
      'The sum of line net amounts must equal the sum of the lines',
      (inv) => [inv.totals.lineNetMinor, sum(inv.lines.map((l) => l.netMinor))],
    ],
    [
      'BR-CO-11',
      'BT-107 discount',
      'The sum of allowances must equal the document-level allowances',
      (inv) => [inv.totals.allowancesMinor, sumAllowancesCharges(inv, false)],
    ],
    [
      'BR-CO-12',
      'BT-108 charges',
      'The sum of charges must equal the document-level charges',
      (inv) => [inv.totals.chargesMinor, sumAllowancesCharges(inv, true)],
    ],
    [
      'BR-CO-13',
      'BT-109 amount',
      'The total without VAT must be the line total less allowances plus charges',
      ({ totals: t }) => [t.taxExclusiveMinor, t.lineNetMinor - t.allowancesMinor + t.chargesMinor],
    ],
    [
      'BR-CO-14',
      'BT-110 vat',
      'The total VAT must equal the sum of the VAT breakdown',
      (inv) => [inv.totals.vatMinor, sum(inv.vatBreakdown.map((b) => b.taxMinor))],
    ],
    [
      'BR-CO-15',
      'BT-112 amount',
      'The total with VAT must be the total without VAT plus the VAT',
      ({ totals: t }) => [t.taxInclusiveMinor, t.taxExclusiveMinor + t.vatMinor],
    ],
    [
      'BR-CO-16',
      'BT-115 amountDue',
      'The amount due must be the total with VAT less the paid amount plus rounding',
      ({ totals: t }) => [t.payableMinor, t.taxInclusiveMinor - t.prepaidMinor + t.roundingMinor],
    ],
  ]),
  rule('BR-CO-18', (inv) =>
    inv.vatBreakdown.length === 0 ? fail('BG-23 vatBreakdown', 'An invoice must have at least one VAT breakdown') : ok,
  ),
  rule('BR-CO-25', (inv) =>
    inv.totals.payableMinor > 0 && blank(inv.dueDate) && blank(inv.paymentTerms)
      ? fail('BT-9 dueDate', 'A positive amount due needs a due date or payment terms')
      : ok,
  ),
  rule('BR-CO-26', (inv) =>
    blank(inv.seller.vatId) && blank(inv.seller.legalId)
      ? fail(
          'BT-30 team.legalRegistrationId',
          "The seller must be identified by its VAT number or its legal registration id (set the team's VAT number, or its commercial register entry)",
        )
      : ok,
  ),
  rule('BR-53', (inv) =>
    inv.vatAccounting && inv.vatAccounting.vatMinor === null
      ? fail(
          'BT-111 vat',
          `The VAT must also be stated in ${inv.vatAccounting.currency}, the team's base currency: import an exchange rate for the issue date`,
        )
      : ok,
  ),
  rule('BR-55', (inv) =>
    inv.typeCode === '381' && blank(inv.precedingInvoice?.number)
      ? fail('BT-25 precedingInvoice', 'A credit note must name the invoice it corrects')
      : ok,
  ),
  rule('BR-61', (inv) =>
    inv.payment && ['30', '58'].includes(inv.payment.meansCode) && blank(inv.payment.iban)
      ? fail(
          'BT-84 bankAccount.iban',
          "A credit transfer needs the payee's account: give one of the team's bank accounts an IBAN",
        )
      : ok,
  ),
  rule('BR-62', (inv) =>
    inv.seller.electronicAddress && blank(inv.seller.electronicAddress.scheme)
      ? fail('BT-34 team.peppolId', "The seller's electronic address must have a scheme")
      : ok,
  ),
  rule('BR-63', (inv) =>
    inv.buyer.electronicAddress && blank(inv.buyer.electronicAddress.scheme)
      ? fail('BT-49 customer.peppolId', "The buyer's electronic address must have a scheme")
      : ok,
  ),
  rule('BR-IC-11', (inv) =>
    usesCategory(inv, 'K') && blank(inv.supply.date) && blank(inv.supply.periodStart)
      ? fail('BT-72 supplyDate', 'An intra-community supply must state the date of supply or the invoicing period')
      : ok,
  ),
  // The deliver-to address is the buyer's (the only one an invoice of ours knows, from-invoice.ts).
  rule('BR-IC-12', (inv) =>
    inv.vatBreakdown.some((b) => b.category === 'K') && blank(inv.delivery?.address.countryCode)
      ? fail(
          'BT-80 customer.countryCode',
          'An intra-community supply must name the member state the goods go to: the customer’s country',
        )
      : ok,
  ),
  rule('BR-DEC-09', (inv) =>
    isCurrencyCode(inv.currency) && currencyExponent(inv.currency) > TOTAL_DECIMALS
      ? fail(
          'BT-5 currency',
          `EN 16931 amounts have at most ${TOTAL_DECIMALS} decimals; ${inv.currency} has ${currencyExponent(inv.currency)}`,
        )
      : ok,
  ),
  ...(['S', 'Z', 'E', 'AE', 'K', 'G'] as const).flatMap(categoryRules),
  // XRechnung 3.0 (BR-DE, the German CIUS).
  rule('BR-DE-1', (inv) => (inv.payment ? ok : fail('BG-16 payment', 'XRechnung requires payment instructions')), ['xrechnung']),
  rule('BR-DE-2', (inv) => (inv.seller.contact ? ok : fail('BG-6 team.email', "XRechnung requires the seller's contact")), [
    'xrechnung',
  ]),
  required('BR-DE-3', 'BT-37 team.city', (inv) => inv.seller.address.city, "XRechnung requires the seller's city", ['xrechnung']),
  required('BR-DE-4', 'BT-38 team.zip', (inv) => inv.seller.address.postCode, "XRechnung requires the seller's post code", [
    'xrechnung',
  ]),
  required('BR-DE-5', 'BT-41 team.name', (inv) => inv.seller.contact?.name, "XRechnung requires the seller's contact point", [
    'xrechnung',
  ]),
  required(
    'BR-DE-6',
    'BT-42 team.phone',
    (inv) => inv.seller.contact?.phone,
    "XRechnung requires the seller's contact telephone number",
    ['xrechnung'],
  ),
  required('BR-DE-7', 'BT-43 team.email', (inv) => inv.seller.contact?.email, "XRechnung requires the seller's contact email", [
    'xrechnung',
  ]),
  required('BR-DE-8', 'BT-52 customer.city', (inv) => inv.buyer.address.city, "XRechnung requires the buyer's city", [
    'xrechnung',
  ]),
  required('BR-DE-9', 'BT-53 customer.zip', (inv) => inv.buyer.address.postCode, "XRechnung requires the buyer's post code", [
    'xrechnung',
  ]),
  rule(
    'BR-DE-10',
    (inv) =>
      inv.delivery && blank(inv.delivery.address.city)
        ? fail('BT-77 customer.city', "XRechnung requires the deliver-to address's city: the customer's city")
        : ok,
    ['xrechnung'],
  ),
  rule(
    'BR-DE-11',
    (inv) =>
      inv.delivery && blank(inv.delivery.address.postCode)
        ? fail('BT-78 customer.zip', "XRechnung requires the deliver-to address's post code: the customer's post code")
        : ok,
    ['xrechnung'],
  ),
  required(
    'BR-DE-15',
    'BT-10 customer.buyerReference',
    (inv) => inv.buyerReference,
    'XRechnung requires the buyer reference (the Leitweg-ID for public buyers): set it on the customer',
    ['xrechnung'],
  ),
  rule(
    'BR-DE-16',
    (inv) =>
      (['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'] as const).some((c) => usesCategory(inv, c)) &&
      blank(inv.seller.vatId) &&
      blank(inv.seller.taxRegistrationId)
        ? fail('BT-32 team.taxNumber', "XRechnung requires the seller's VAT identifier or tax number (Steuernummer)")
        : ok,
    ['xrechnung'],
  ),
  // XRechnung 3.0 makes both electronic addresses mandatory (cardinality 1..1, no BR id of its own).
  rule(
    'XR-BT-34',
    (inv) =>
      inv.seller.electronicAddress
        ? ok
        : fail('BT-34 team.peppolId', "XRechnung requires the seller's electronic address (the team's Peppol id or email)"),
    ['xrechnung'],
  ),
  rule(
    'XR-BT-49',
    (inv) =>
      inv.buyer.electronicAddress
        ? ok
        : fail(
            'BT-49 customer.peppolId',
            "XRechnung requires the buyer's electronic address (the customer's Peppol id or email)",
          ),
    ['xrechnung'],
  ),
  // Peppol BIS Billing 3.0.
  rule(
    'PEPPOL-EN16931-R003',
    (inv) =>
      blank(inv.buyerReference)
        ? fail(
            'BT-10 customer.buyerReference',
            'Peppol requires a buyer reference or purchase order reference: set it on the customer or the invoice',
          )
        : ok,
    ['peppol'],
  ),
  rule(
    'PEPPOL-EN16931-R010',
    (inv) =>
      inv.buyer.electronicAddress ? ok : fail('BT-49 customer.peppolId', "Peppol requires the buyer's electronic address"),
    ['peppol'],
  ),
  rule(
    'PEPPOL-EN16931-R020',
    (inv) => (inv.seller.electronicAddress ? ok : fail('BT-34 team.peppolId', "Peppol requires the seller's electronic address")),
    ['peppol'],
  ),
  rule(
    'FD-PEPPOL-ID',
    (inv) => {
      const out: Finding[] = [];
      for (const [who, p, field] of [
        ['buyer', inv.buyer, 'BT-49 customer.peppolId'],
        ['seller', inv.seller, 'BT-34 team.peppolId'],
      ] as const) {
        const a = p.electronicAddress;
        if (!a) continue;
        const check = checkPeppolId(`${a.scheme}:${a.value}`);
        // A wrong check digit is the scheme's own Peppol rule (below).
        if (!check.ok && !check.rule)
          out.push({
            field,
            message: `The ${who}'s Peppol participant id ${a.scheme}:${a.value} is not usable: ${check.reason}`,
          });
      }
      return out;
    },
    ['peppol'],
  ),
  // PEPPOL-COMMON-R040…R050: the syntax and check digits of the identifier schemes Peppol checks.
  ...SCHEME_CHECKS.map((c) =>
    rule(
      c.rule,
      (inv) =>
        (
          [
            ['buyer', inv.buyer, 'BT-49 customer.peppolId'],
            ['seller', inv.seller, 'BT-34 team.peppolId'],
          ] as const
        ).flatMap(([who, p, field]) => {
          const a = p.electronicAddress;
          const problem = a && a.scheme === c.icd ? schemeIdentifierProblem(a.scheme, a.value) : null;
          return problem
            ? [{ field, message: `The ${who}'s electronic address ${a?.scheme}:${a?.value}: ${problem.reason}` }]
            : [];
        }),
      ['peppol'],
    ),
  ),
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

/** Every failure of the rules that apply to a format following `cius`, in the order of the rule list. */
export function checkEInvoice(invoice: EInvoice, cius: Cius): RuleFailure[] {
  const failures: RuleFailure[] = [];
  for (const r of RULES) {
    if (r.cius && !r.cius.includes(cius)) continue;
    for (const f of r.check(invoice)) failures.push({ rule: r.id, ...f });
  }
  return failures;
}
