import { beforeAll, describe, expect, it } from 'vitest';
import { setFormatPreferences } from '../../../../src-renderer/lib/format';
import { amountOrDash } from '../../../../src-renderer/screens/customers/amount-or-dash';

describe("a customer's paid and owed figures in the list", () => {
  beforeAll(() => setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy', timezone: 'UTC', numberFormat: 'locale' }));

  it('show nothing one way: no invoices yet and all settled both read as a dash', () => {
    expect(amountOrDash(0, null)).toBe('—');
    expect(amountOrDash(0, 'EUR')).toBe('—');
  });

  it('show an amount in its currency by the user’s formats', () => {
    expect(amountOrDash(1234.5, 'EUR')).toMatch(/^1\.234,50\s€$/);
  });
});
