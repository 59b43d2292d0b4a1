import type { BuyerSource, SellerSource } from '../../../src-shared/domain/einvoice/from-invoice';
import type { Db } from '../db';
import { getTeamDetails } from '../teams/teams';
import type { InvoiceRow } from './read';

/**
 * The two parties of an invoice — the team as seller (with the IBAN it is paid to) and the customer as buyer — read
 * once here for the PDF, the e-invoice and the checks before issuing, so all three say the same. At issue they are
 * frozen on the invoice (`invoices.issued_parties`, docs/decisions/0119-issued-invoices-frozen.md): from then on the
 * invoice's documents read the parties as they stood that day, whatever the team or the customer changes later.
 */

export interface InvoiceParties {
  seller: SellerSource;
  buyer: BuyerSource;
}

export interface FrozenParties extends InvoiceParties {
  /** When they were frozen: the issue. */
  issuedAt: string;
}

interface CustomerRow {
  name: string;
  vat_number: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  zip: string | null;
  state: string | null;
  country_code: string | null;
  country: string | null;
  peppol_id: string | null;
  email: string | null;
  billing_email: string | null;
  phone: string | null;
  buyer_reference: string | null;
}

/**
 * The IBAN invoices are paid to: an enabled account with one, in the invoice's currency if there is such, the
 * oldest first (a team names its main account first).
 */
export function payeeIban(db: Db, teamId: string, currency: string): string | null {
  return (
    (db
      .prepare(
        `SELECT iban FROM bank_accounts WHERE team_id = ? AND enabled = 1 AND iban IS NOT NULL AND iban <> ''
         ORDER BY currency = ? DESC, created_at, id LIMIT 1`,
      )
      .pluck()
      .get(teamId, currency) as string | undefined) ?? null
  );
}

/** The team as the seller of an invoice in `currency`, as it stands now. */
export function currentSeller(db: Db, teamId: string, currency: string): SellerSource {
  const team = getTeamDetails(db, teamId);
  return {
    name: team.name,
    vatNumber: team.vatNumber,
    addressLine1: team.addressLine1,
    addressLine2: team.addressLine2,
    city: team.city,
    zip: team.zip,
    state: team.state,
    countryCode: team.countryCode,
    peppolId: team.peppolId,
    email: team.email,
    phone: team.phone,
    iban: payeeIban(db, teamId, currency),
    bic: null,
    taxNumber: team.taxNumber,
    legalRegistrationId: team.legalRegistrationId,
  };
}

/** The customer as the buyer, as the record stands now; without one (or deleted), the name on the invoice. */
export function currentBuyer(db: Db, teamId: string, customerId: string | null, customerName: string | null): BuyerSource {
  const c = customerId
    ? (db.prepare('SELECT * FROM customers WHERE team_id = ? AND id = ?').get(teamId, customerId) as CustomerRow | undefined)
    : undefined;
  return {
    name: c?.name ?? customerName ?? '',
    vatNumber: c?.vat_number ?? null,
    addressLine1: c?.address_line1 ?? null,
    addressLine2: c?.address_line2 ?? null,
    city: c?.city ?? null,
    zip: c?.zip ?? null,
    state: c?.state ?? null,
    countryCode: c?.country_code ?? null,
    peppolId: c?.peppol_id ?? null,
    email: c?.billing_email ?? c?.email ?? null,
    phone: c?.phone ?? null,
    buyerReference: c?.buyer_reference ?? null,
  };
}

/** The parties frozen at issue; null for an invoice not issued (a draft, a scheduled one, one canceled as a draft). */
export function frozenParties(r: Pick<InvoiceRow, 'issued_parties'>): FrozenParties | null {
  if (!r.issued_parties) return null;
  try {
    const v = JSON.parse(r.issued_parties) as Partial<FrozenParties>;
    return v?.seller && v.buyer ? (v as FrozenParties) : null;
  } catch {
    return null;
  }
}

/**
 * The parties of this invoice: frozen at its issue, else as they stand now. The invoice's own customer name is the
 * buyer's name while it is not issued (an invoice may name its recipient other than the record does).
 */
export function invoicePartiesOf(
  db: Db,
  teamId: string,
  r: Pick<InvoiceRow, 'issued_parties' | 'currency' | 'customer_id' | 'customer_name'>,
): InvoiceParties {
  const frozen = frozenParties(r);
  if (frozen) return frozen;
  const buyer = currentBuyer(db, teamId, r.customer_id, r.customer_name);
  return { seller: currentSeller(db, teamId, r.currency), buyer: { ...buyer, name: r.customer_name ?? buyer.name } };
}

/** The parties as they stand now, frozen on the invoice: called by the issue move, inside its write. */
export function freezeParties(
  db: Db,
  teamId: string,
  r: Pick<InvoiceRow, 'issued_parties' | 'currency' | 'customer_id' | 'customer_name'>,
  issuedAt: string,
): string {
  const now = invoicePartiesOf(db, teamId, { ...r, issued_parties: null });
  return JSON.stringify({ ...now, issuedAt } satisfies FrozenParties);
}
