import { afterEach, describe, expect, it } from 'vitest';
import { setFormatPreferences } from '../../../src-renderer/lib/format';
import { localizeFigures } from '../../../src-renderer/lib/localize-figures';

afterEach(() => setFormatPreferences({ locale: 'en', dateFormat: 'yyyy-MM-dd', numberFormat: 'locale' }));

describe('figures inside text made elsewhere', () => {
  it('writes an amount with its currency code and an ISO day in the user’s formats', () => {
    setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy' });
    expect(localizeFigures('Send a payment reminder for INV-0042 (1130.5 EUR) to Nordlicht?')).toBe(
      'Send a payment reminder for INV-0042 (1.130,50 €) to Nordlicht?',
    );
    expect(localizeFigures('Due 2026-11-30. Pay -49 USD.')).toBe('Due 30.11.2026. Pay -49,00 $.');
  });

  it('leaves alone what only looks like it: no known currency, numbers inside words and ids', () => {
    setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy' });
    for (const text of ['Order 12 ABC', 'INV-2026-11-30-7', 'version 1.5 XYZ', 'id 4800EUR'])
      expect(localizeFigures(text)).toBe(text);
  });
});
