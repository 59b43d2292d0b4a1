import type { Invoice } from '../../../src-shared/contract/invoices';
import type { BuyerSource, SellerSource } from '../../../src-shared/domain/einvoice/from-invoice';
import { type EInvoiceFormat, isEInvoiceFormat } from '../../../src-shared/domain/einvoice/model';
import { convertMinor } from '../../../src-shared/domain/fx';
import type { Db } from '../db';
import { perUsdOn } from '../exchange-rates/rate-of-day';
import { getInvoice } from '../invoices/read';
import { getTeamDetails } from '../teams/teams';

/**
 * What an e-invoice of one invoice needs from the database (docs/decisions/0160-e-invoices.md): the invoice, the
 * team as seller with the IBAN of one of its bank accounts, the customer as buyer, the format the customer takes
 * (else the team's default), and the VAT in the base currency when the invoice is in another.
 */

export interface EInvoiceSources {
  invoice: Invoice;
  seller: SellerSource;
  buyer: BuyerSource;
  /** The customer's format, else the team's; null: none chosen. */
  format: EInvoiceFormat | null;
  baseCurrency: string;
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
  peppol_id: string | null;
  email: string | null;
  billing_email: string | null;
  phone: string | null;
  buyer_reference: string | null;
  e_invoice_format: string | null;
}

/**
 * The IBAN invoices are paid to: an enabled account with one, in the invoice's currency if there is such, the
 * oldest first (a team names its main account first).
 */
function payeeIban(db: Db, teamId: string, currency: string): string | null {
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

export function eInvoiceSources(db: Db, teamId: string, invoiceId: string): EInvoiceSources {
  const invoice = getInvoice(db, teamId, invoiceId);
  const team = getTeamDetails(db, teamId);
  const c = invoice.customerId
    ? (db.prepare('SELECT * FROM customers WHERE team_id = ? AND id = ?').get(teamId, invoice.customerId) as
        | CustomerRow
        | undefined)
    : undefined;
  const buyer: BuyerSource = {
    name: c?.name ?? invoice.customerName ?? '',
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
  const seller: SellerSource = {
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
    iban: payeeIban(db, teamId, invoice.currency),
    bic: null,
    taxNumber: team.taxNumber,
    legalRegistrationId: team.legalRegistrationId,
  };
  const chosen = c?.e_invoice_format ?? team.eInvoiceFormat;
  return { invoice, seller, buyer, format: isEInvoiceFormat(chosen) ? chosen : null, baseCurrency: team.baseCurrency };
}

/**
 * `vatMinor` of an invoice in `currency` in the base currency at the rate of `day` (decision 0053's rates); null
 * when either currency has no rate on or before that day.
 */
export function vatInBaseCurrency(db: Db, vatMinor: number, currency: string, base: string, day: string): number | null {
  const from = perUsdOn(db, currency, day);
  const to = perUsdOn(db, base, day);
  if (!from || !to) return null;
  return convertMinor(vatMinor, currency, base, from.perUsd, to.perUsd);
}
