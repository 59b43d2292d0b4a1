import type { Invoice } from '../../../src-shared/contract/invoices';
import type { BuyerSource, SellerSource } from '../../../src-shared/domain/einvoice/from-invoice';
import { type EInvoiceFormat, isEInvoiceFormat } from '../../../src-shared/domain/einvoice/model';
import { convertMinor } from '../../../src-shared/domain/fx';
import type { Db } from '../db';
import { perUsdOn } from '../rate-of-day';
import { getTeamDetails } from '../teams/teams';
import { invoicePartiesOf } from './parties';
import { getInvoice, requireInvoiceRow } from './read';

/**
 * What an e-invoice of one invoice needs from the database (docs/decisions/0160-e-invoices.md): the invoice, the
 * team as seller with the IBAN of one of its bank accounts, the customer as buyer (both frozen at issue, 0119), the format the customer takes
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

/**
 * The parties come from ./parties.ts: frozen at issue for an issued invoice, so its e-invoice (and the
 * visible page of a hybrid, rendered from the same) says what the invoice said the day it was issued.
 */
export function eInvoiceSources(db: Db, teamId: string, invoiceId: string): EInvoiceSources {
  const invoice = getInvoice(db, teamId, invoiceId);
  const team = getTeamDetails(db, teamId);
  const { seller, buyer } = invoicePartiesOf(db, teamId, requireInvoiceRow(db, teamId, invoiceId));
  const customerFormat = invoice.customerId
    ? (db
        .prepare('SELECT e_invoice_format FROM customers WHERE team_id = ? AND id = ?')
        .pluck()
        .get(teamId, invoice.customerId) as string | null | undefined)
    : undefined;
  const chosen = customerFormat ?? team.eInvoiceFormat;
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
