/**
 * A team whose invoices may be issued (docs/decisions/0121): the name, address and VAT number an invoice must
 * state, and an account with the IBAN it is paid to — and a customer with a full address. For tests that issue
 * invoices over the API and are about something else.
 */
import { createBankAccount } from '../../src-main/store/bank-accounts/bank-accounts';
import type { Db } from '../../src-main/store/db';
import { updateInvoiceSettings } from '../../src-main/store/invoices/settings';
import { updateTeam } from '../../src-main/store/teams/team-api';
import { ensureTeam } from '../../src-main/store/teams/teams';

export const LAWFUL_SELLER = {
  countryCode: 'DE',
  addressLine1: 'Friedrichstraße 12',
  zip: '10117',
  city: 'Berlin',
  vatNumber: 'DE123456789',
} as const;

export const LAWFUL_IBAN = 'DE89370400440532013000';

/** A customer's address an invoice can be issued to (spread into a customer create body). */
export const LAWFUL_BUYER_ADDRESS = {
  addressLine1: 'Torstraße 1',
  zip: '10119',
  city: 'Berlin',
  countryCode: 'DE',
} as const;

/** Why the lawful team's invoices without a rate charge no VAT (a test team's invoices default to 0 %). */
export const LAWFUL_EXEMPTION = 'Steuerfrei nach § 4 Nr. 21 UStG (Unterrichtsleistung)';

/**
 * Gives the team (by name or id, created if absent) what an invoice must state of its seller, and the reason its
 * untaxed lines charge no VAT as its invoices' default. Returns its id.
 */
export function makeTeamLawful(db: Db, team: string): string {
  const { id } = ensureTeam(db, team);
  updateTeam(db, { teamId: id, userId: null }, id, { ...LAWFUL_SELLER });
  createBankAccount(db, id, { name: 'Main account', currency: 'EUR', iban: LAWFUL_IBAN });
  updateInvoiceSettings(db, id, { template: { vatExemptionReason: LAWFUL_EXEMPTION } });
  return id;
}
