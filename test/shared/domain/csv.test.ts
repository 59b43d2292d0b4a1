import { describe, expect, it } from 'vitest';
import { CSV_COMMA, CSV_POINT, csvAmount, csvCell, csvLine } from '../../../src-shared/domain/csv';

describe('CSV for spreadsheets', () => {
  it('writes an amount with every digit of its currency, exactly from minor units', () => {
    expect(csvAmount(-1260, 'EUR').digits).toBe('-12.60');
    expect(csvAmount(5, 'EUR').digits).toBe('0.05');
    expect(csvAmount(-5, 'KWD').digits).toBe('-0.005');
    expect(csvAmount(1000, 'JPY').digits).toBe('1000');
    expect(csvAmount(123456789012345, 'EUR').digits).toBe('1234567890123.45');
  });

  it('a decimal-comma dialect separates fields by semicolons and quotes what holds one', () => {
    expect(csvLine(['Train, return', csvAmount(-4250, 'EUR'), 19.5], CSV_COMMA)).toBe('Train, return;-42,50;19,5\r\n');
    expect(csvLine(['a;b', csvAmount(-4250, 'EUR')], CSV_COMMA)).toBe('"a;b";-42,50\r\n');
    expect(csvLine(['Train, return', csvAmount(-4250, 'EUR')], CSV_POINT)).toBe('"Train, return",-42.50\r\n');
  });

  it('disarms formulas in text but not the minus of an amount', () => {
    expect(csvCell('-SUM(A1)', CSV_COMMA)).toBe("'-SUM(A1)");
    expect(csvCell(csvAmount(-100, 'EUR'), CSV_COMMA)).toBe('-1,00');
  });
});
