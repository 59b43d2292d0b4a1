/** The backup schedule's numbers: whole numbers as typed, anything else refused before it is sent. */
import { describe, expect, it } from 'vitest';
import { wholeNumber } from '../../../../src-renderer/screens/settings/backup-form';

describe('wholeNumber', () => {
  it('reads whole numbers, spaces around them allowed', () => {
    expect(wholeNumber('24')).toBe(24);
    expect(wholeNumber(' 7 ')).toBe(7);
    expect(wholeNumber('0')).toBe(0);
  });

  it('refuses what is not one', () => {
    for (const text of ['', ' ', '1.5', '1,5', '12h', '1e3', '-1', '+3', '1234567890'])
      expect(wholeNumber(text), text).toBeNull();
  });
});
