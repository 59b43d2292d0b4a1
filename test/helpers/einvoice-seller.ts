/**
 * A team ready to issue XRechnung and Peppol e-invoices (docs/decisions/0160-e-invoices.md): what BR-DE-1…7,
 * BR-CO-26 and the electronic-address rules ask of the seller, and a bank account with an IBAN (BR-61). For the API
 * and browser tests of e-invoices.
 */
import type { TeamPatch } from '../../src-shared/contract/teams';

export const E_INVOICE_SELLER = {
  countryCode: 'DE',
  addressLine1: 'Friedrichstraße 12',
  zip: '10117',
  city: 'Berlin',
  vatNumber: 'DE123456789',
  peppolId: '9930:DE123456789',
  email: 'billing@nordlicht.example',
  phone: '+49 30 1234567',
} as const satisfies TeamPatch;

export const E_INVOICE_BANK_ACCOUNT = { name: 'Main', currency: 'EUR', iban: 'DE89 3704 0044 0532 0130 00' } as const;

/** A German public buyer taking XRechnung (UBL), with its Peppol ID and Leitweg-ID. */
export const E_INVOICE_BUYER = {
  name: 'Stadtwerke Musterstadt',
  email: 'rechnung@stadtwerke.example',
  countryCode: 'DE',
  addressLine1: 'Rathausplatz 1',
  zip: '12345',
  city: 'Musterstadt',
  vatNumber: 'DE987654321',
  peppolId: '9930:DE987654321',
  buyerReference: '04011000-12345-03',
  eInvoiceFormat: 'xrechnung-ubl',
} as const;

/** An invoice at two VAT rates that passes every rule of each format, to a customer given as `customerId`. */
export const E_INVOICE_INVOICE = {
  currency: 'EUR',
  issueDate: '2025-03-14',
  dueDate: '2025-04-13',
  template: { vatRate: 19, includeVat: true },
  lineItems: [
    { name: 'Consulting', quantity: 3, unit: 'h', price: 150 },
    { name: 'Handbook', quantity: 2, unit: 'pcs', price: 24.9, vat: 7 },
  ],
} as const;
