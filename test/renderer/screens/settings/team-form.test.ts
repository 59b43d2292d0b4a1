import { describe, expect, it } from 'vitest';
import { createBody, newAccountValues, patchBody } from '../../../../src-renderer/screens/settings/bank-account-form';
import { teamErrors, teamPatch, teamValues } from '../../../../src-renderer/screens/settings/team-form';
import type { BankAccount } from '../../../../src-shared/contract/bank-accounts';
import type { Team } from '../../../../src-shared/contract/teams';

const team = {
  id: 't1',
  name: 'Acme',
  logoUrl: null,
  baseCurrency: 'EUR',
  countryCode: 'DE',
  fiscalYearStartMonth: 1,
  addressLine1: 'Hauptstr. 1',
  addressLine2: null,
  zip: '10115',
  city: 'Berlin',
  state: null,
  vatNumber: 'DE123456789',
  taxNumber: null,
  legalRegistrationId: null,
  peppolId: null,
  email: null,
  phone: null,
  eInvoiceFormat: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
} satisfies Team;

const account = {
  id: 'a1',
  name: 'Cash',
  type: 'depository',
  balance: { amount: 100, currency: 'EUR' },
  currency: 'EUR',
  manual: true,
  enabled: true,
  iban: null,
} as unknown as BankAccount;

describe('the team form', () => {
  it('sends only what changed: trimmed, an emptied field as null, the fiscal month as a number', () => {
    const v = teamValues(team);
    expect(teamPatch(team, v)).toEqual({});
    expect(teamPatch(team, { ...v, name: ' Acme GmbH ', addressLine1: '', fiscalYearStartMonth: '4', state: ' ' })).toEqual({
      name: 'Acme GmbH',
      addressLine1: null,
      fiscalYearStartMonth: 4,
    });
  });

  it('asks for a name and a VAT number in the country’s format before sending', () => {
    const v = teamValues(team);
    expect(teamErrors(v)).toEqual({});
    expect(Object.keys(teamErrors({ ...v, name: ' ', vatNumber: 'DE1' }))).toEqual(['name', 'vatNumber']);
    expect(teamErrors({ ...v, countryCode: '', vatNumber: 'whatever-123' })).toEqual({});
  });
});

describe('the bank account form', () => {
  it('creates a manual account with its opening balance read in the person’s format, and an optional day and IBAN', () => {
    expect(
      createBody({ ...newAccountValues('EUR'), name: ' Cash box ', balance: '1,250.50', openingDate: '2026-01-31' }),
    ).toEqual({
      errors: {},
      body: { name: 'Cash box', currency: 'EUR', type: 'depository', openingBalance: 1250.5, openingDate: '2026-01-31' },
    });
    expect(createBody({ ...newAccountValues('EUR'), name: '', balance: 'abc' }).errors).toEqual({
      name: 'Enter the account’s name',
      balance: 'Enter an amount, such as 1,250.00',
    });
  });

  it('edits only what changed; a manual account’s balance today becomes `balance`', () => {
    const v = { name: 'Cash', currency: 'EUR', type: 'depository' as const, balance: '', openingDate: '', iban: '' };
    expect(patchBody(account, v).body).toEqual({});
    expect(patchBody(account, { ...v, name: 'Petty cash', balance: '80', iban: 'DE89 3704 0044 0532 0130 00' }).body).toEqual({
      name: 'Petty cash',
      balance: 80,
      iban: 'DE89 3704 0044 0532 0130 00',
    });
    // A connected account's balance is the bank's: not offered, not sent.
    expect(patchBody({ ...account, manual: false }, { ...v, balance: '80' }).body).toEqual({});
  });
});
