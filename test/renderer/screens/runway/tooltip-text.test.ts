import { describe, expect, it } from 'vitest';
import { setFormatPreferences } from '../../../../src-renderer/lib/format';
import { shownInTooltip, tooltipText } from '../../../../src-renderer/screens/runway/tooltip-text';

describe('a forecast chart’s tooltip', () => {
  it('leaves out a series without a value that month (no "Actual" for a month to come) and the hidden bounds', () => {
    expect(shownInTooltip('Actual', null)).toBe(false);
    expect(shownInTooltip('Actual', 1200)).toBe(true);
    expect(shownInTooltip('_upper80', 1500)).toBe(false);
  });

  it('says a band by both its bounds, and a value alone otherwise', () => {
    setFormatPreferences({ locale: 'en-GB', numberFormat: 'locale' });
    expect(tooltipText('80 % interval', 90_000, { label: '_upper80', value: 120_000 }, 'EUR')).toBe(
      '80 % interval: €90,000.00 – €120,000.00',
    );
    expect(tooltipText('Forecast', 100_000, { label: '80 % interval', value: 90_000 }, 'EUR')).toBe('Forecast: €100,000.00');
    expect(tooltipText('Actual', -5, undefined, 'EUR')).toBe('Actual: -€5.00');
  });
});
