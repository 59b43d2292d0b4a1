/**
 * What an invoice must state before it is issued (docs/decisions/0121-checks-before-issuing.md): Art. 226 of the EU
 * VAT directive (2006/112/EC) and § 14 (4) UStG, which says the same for Germany. Pure; the server refuses to issue
 * an invoice that fails any of these (422 with `rules`, like the e-invoice rules) and the send dialog lists them,
 * each with a way to its field. Each failure names its rule and the field it is fixed in, in the e-invoice rules'
 * form ("BT-31 team.vatNumber"), so the screens word and route both kinds alike.
 *
 * | rule       | what                                                                    | law                       |
 * |------------|-------------------------------------------------------------------------|---------------------------|
 * | ART226-2   | a number (a replica's invoice waits for its remote's: not checked)      | Art. 226 (2), § 14 (4) 4  |
 * | ART226-3   | the seller's VAT number — or, in Germany, its tax number                | Art. 226 (3), § 14 (4) 2  |
 * | ART226-4   | the customer's VAT number under reverse charge or an intra-EU supply    | Art. 226 (4)              |
 * | ART226-5   | the seller's and the customer's full name and address                  | Art. 226 (5), § 14 (4) 1  |
 * | ART226-6   | at least one line with what was supplied                                | Art. 226 (6), § 14 (4) 5  |
 * | ART226-11  | why no VAT is charged, where a line charges none                        | Art. 226 (11), § 14 (4) 8 |
 * | FD-PAY     | where to pay: an IBAN of the team's accounts or payment details (ours)  | —                         |
 *
 * The date of issue and of supply (the issue date unless the invoice names another), the net amount per rate, the
 * rate and the VAT are always stated: the invoice computes them (docs/decisions/0071, 0078). Invoices of up to
 * € 250 (§ 33 UStDV) are held to the full list too: a business's customers have addresses.
 */
import type { VatSituation } from './invoice-vat';

export interface RequirementParty {
  name: string;
  addressLine1: string | null;
  city: string | null;
  zip: string | null;
  countryCode: string | null;
  vatNumber: string | null;
  /** The seller's tax number (Steuernummer), where its record has one: § 14 (4) 2 UStG takes it for the VAT number. */
  taxNumber?: string | null;
}

export interface RequirementInput {
  invoiceNumber: string | null;
  lines: readonly { name: string; vatRate: number }[];
  includeVat: boolean;
  /** template.vatCategory: AE reverse charge, K intra-community supply, E exempt, Z zero rated, G export. */
  vatCategory: string | null;
  vatExemptionReason: string | null;
  paymentDetails: string | null;
  /** The template's own text blocks for the parties, printed instead of the records' addresses. */
  fromDetails: string | null;
  customerDetails: string | null;
  seller: RequirementParty & { iban: string | null };
  buyer: RequirementParty;
  /** Where the customer stands (./invoice-vat.ts): reverse charge asks for the customer's VAT number too. */
  situation: VatSituation;
}

export interface RequirementFailure {
  rule: string;
  field: string;
  message: string;
}

const filled = (v: string | null | undefined) => Boolean(v?.trim());

/** A text block names a name and an address when it has a line beyond the name. */
const blockHasAddress = (text: string | null) =>
  (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean).length >= 2;

function addressFailures(p: RequirementParty, who: 'team' | 'customer', block: string | null): RequirementFailure[] {
  const out: RequirementFailure[] = [];
  const name = who === 'team' ? 'BT-27' : 'BT-44';
  const [street, city, zip, country] =
    who === 'team' ? ['BT-35', 'BT-37', 'BT-38', 'BT-40'] : ['BT-50', 'BT-52', 'BT-53', 'BT-55'];
  const whose = who === 'team' ? "The team's" : "The customer's";
  if (!filled(p.name) && !filled(block))
    out.push({ rule: 'ART226-5', field: `${name} ${who}.name`, message: `${whose} name is missing` });
  if (blockHasAddress(block)) return out;
  if (!filled(p.addressLine1))
    out.push({ rule: 'ART226-5', field: `${street} ${who}.address`, message: `${whose} street address is missing` });
  if (!filled(p.city)) out.push({ rule: 'ART226-5', field: `${city} ${who}.city`, message: `${whose} city is missing` });
  if (!filled(p.zip)) out.push({ rule: 'ART226-5', field: `${zip} ${who}.zip`, message: `${whose} postal code is missing` });
  if (!filled(p.countryCode))
    out.push({ rule: 'ART226-5', field: `${country} ${who}.countryCode`, message: `${whose} country is missing` });
  return out;
}

export function issueRequirements(input: RequirementInput): RequirementFailure[] {
  const out: RequirementFailure[] = [];
  if (input.invoiceNumber !== null && !filled(input.invoiceNumber))
    out.push({ rule: 'ART226-2', field: 'invoiceNumber', message: 'The invoice has no number' });
  if (!filled(input.seller.vatNumber) && !filled(input.seller.taxNumber))
    out.push({
      rule: 'ART226-3',
      field: 'BT-31 team.vatNumber',
      message: "The team's VAT number (or tax number) is missing: every invoice states it",
    });
  const intraEu = input.situation === 'reverse_charge' || input.vatCategory === 'AE' || input.vatCategory === 'K';
  if (intraEu && !filled(input.buyer.vatNumber))
    out.push({
      rule: 'ART226-4',
      field: 'BT-48 customer.vatNumber',
      message: "The customer's VAT number is missing: an invoice under reverse charge or an intra-EU supply states it",
    });
  out.push(...addressFailures(input.seller, 'team', input.fromDetails));
  out.push(...addressFailures(input.buyer, 'customer', input.customerDetails));
  if (input.lines.length === 0 || input.lines.every((l) => !filled(l.name)))
    out.push({ rule: 'ART226-6', field: 'lineItems', message: 'The invoice names nothing supplied: add a line' });
  const untaxed = !input.includeVat || input.lines.some((l) => l.vatRate === 0);
  // Reverse charge carries its note by itself (the PDF prints it in the invoice's language when none is written).
  if (untaxed && input.vatCategory !== 'AE' && !filled(input.vatExemptionReason))
    out.push({
      rule: 'ART226-11',
      field: 'template.vatExemptionReason',
      message: 'A line charges no VAT: the invoice must say why (an exemption, reverse charge, a small business)',
    });
  if (!filled(input.seller.iban) && !filled(input.paymentDetails))
    out.push({
      rule: 'FD-PAY',
      field: 'bankAccount.iban',
      message: "Nothing says where to pay: give one of the team's bank accounts an IBAN, or write payment details",
    });
  return out;
}

/** Every rule id this module can name (the catalogue words each; a test holds the two equal). */
export const REQUIREMENT_RULES = ['ART226-2', 'ART226-3', 'ART226-4', 'ART226-5', 'ART226-6', 'ART226-11', 'FD-PAY'] as const;
