import { describe, expect, it } from 'vitest';
import { parseDay } from '../../../src-main/demo/calendar';
import { demoWindow } from '../../../src-main/demo/context';
import { generateCustomers } from '../../../src-main/demo/customers';
import { Prng } from '../../../src-main/demo/prng';
import { checkVatNumber } from '../../../src-shared/validation/vat-number';

describe('checkVatNumber', () => {
  it.each([
    ['DE123456789', 'DE'],
    ['de 123 456 789', null],
    ['ATU12345678', 'AT'],
    ['EL123456789', 'GR'],
    ['FR1A123456789', 'FR'],
    ['NL123456789B01', 'NL'],
    ['CHE-123.456.789 MWST', 'CH'],
    ['GB123456789', 'GB'],
    ['IE1234567WA', 'IE'],
    ['DE123456789', 'FR'], // a French customer's German VAT number: the prefix decides
    ['12-3456789', 'US'], // no format known for the country
    ['', 'DE'],
  ])('accepts %s (country %s)', (value, country) => {
    expect(checkVatNumber(value, country)).toEqual({ ok: true });
  });

  it.each([
    ['DE12345678', 'DE', 'DE', 'DE123456789'],
    ['123456789', 'DE', 'DE', 'DE123456789'],
    ['GR123456789', 'GR', 'GR', 'EL123456789'],
    ['NL123456789', null, 'NL', 'NL123456789B01'],
    ['ATU1234567', 'AT', 'AT', 'ATU12345678'],
    ['SE123456789012', 'SE', 'SE', 'SE123456789001'],
  ])('refuses %s (country %s), expecting the format of %s', (value, country, expected, example) => {
    expect(checkVatNumber(value, country)).toEqual({ ok: false, country: expected, example });
  });

  it('accepts every VAT number of the demo customers', () => {
    const customers = generateCustomers(new Prng('vat').fork('customers'), demoWindow(parseDay('2026-11-22')), () => 'id');
    const withVat = customers.filter((c) => c.vatNumber);
    expect(withVat.length).toBeGreaterThan(20);
    for (const c of withVat)
      expect(checkVatNumber(c.vatNumber!, c.countryCode), `${c.vatNumber} ${c.countryCode}`).toEqual({ ok: true });
  });
});
