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
