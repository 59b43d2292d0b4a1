import { describe, expect, it } from 'vitest';
import { detectRecurring, type HistoryRow, payeeKey } from '../../../src-shared/domain/recurring';

let n = 0;
const row = (
  date: string,
  amountMinor: number,
  counterparty: string | null,
  name = counterparty ?? 'x',
  accountId = 'a',
): HistoryRow => ({
  id: `t${String(++n).padStart(4, '0')}`,
  date,
  amountMinor,
  currency: 'EUR',
  accountId,
  counterparty,
  name,
});

/** The last weekday of each month of 2025 and early 2026: where German payroll lands. */
const LAST_WORKING_DAYS = ['2025-07-31', '2025-08-29', '2025-09-30', '2025-10-31', '2025-11-28', '2025-12-31', '2026-01-30'];

describe('recurring detection', () => {
  it('finds a subscription whose price changed, predicting the new price', () => {
    const rows = ['2025-06-03', '2025-07-03', '2025-08-04', '2025-09-03', '2025-10-03', '2025-11-03', '2025-12-03'].map((d, i) =>
      row(d, i < 4 ? -1299 : -1599, null, `NETFLIX.COM ${4000 + i}`),
    );
    const [s] = detectRecurring(rows, '2025-12-20');
    expect(s).toMatchObject({
      frequency: 'monthly',
      nextAmountMinor: -1599,
      priceChanged: true,
      nextDate: '2026-01-03',
      active: true,
    });
    expect(s!.transactionIds).toHaveLength(7);
  });

  it('finds a monthly salary on the last working day and predicts the next one', () => {
    const rows = LAST_WORKING_DAYS.map((d) => row(d, -385_000, 'Jana Schulz', 'Gehalt Jana Schulz'));
    const [s] = detectRecurring(rows, '2026-02-10');
    expect(s).toMatchObject({ frequency: 'monthly', nextDate: '2026-02-27', amountMinor: -385_000 });
  });

  it('finds a quarterly tax prepayment', () => {
    const rows = ['2025-03-10', '2025-06-10', '2025-09-10', '2025-12-10'].map((d) => row(d, -420_000, 'Finanzamt Berlin'));
    expect(detectRecurring(rows, '2026-01-05')[0]).toMatchObject({ frequency: 'quarterly', nextDate: '2026-03-10' });
  });

  it('finds weekly and annual series', () => {
    const weekly = Array.from({ length: 5 }, (_, i) =>
      row(`2026-01-${String(2 + 7 * i).padStart(2, '0')}`, -4_500, 'Cleaning Co'),
    );
    const annual = ['2024-02-01', '2025-02-01'].map((d) => row(d, -29_900, 'Domain Registrar'));
    const found = detectRecurring([...weekly, ...annual], '2026-02-10');
    expect(found.map((s) => s.frequency).sort()).toEqual(['annually', 'weekly']);
  });

  it('does not take irregular card spend for a series', () => {
    const days = ['2026-01-02', '2026-01-03', '2026-01-09', '2026-01-10', '2026-01-22', '2026-02-05', '2026-02-06', '2026-02-19'];
    const amounts = [-450, -1280, -390, -2210, -600, -450, -3990, -720];
    expect(
      detectRecurring(
        days.map((d, i) => row(d, amounts[i]!, 'Coffee Bar')),
        '2026-02-20',
      ),
    ).toEqual([]);
  });

  it('keeps accounts, directions and payees apart; normalises payee noise', () => {
    expect(payeeKey(null, 'NETFLIX.COM 4821')).toBe(payeeKey(null, 'Netflix.com 9911'));
    const rows = [
      ...['2025-10-05', '2025-11-05', '2025-12-05'].map((d) => row(d, -1000, 'Gym', 'Gym', 'a')),
      ...['2025-10-05', '2025-11-05'].map((d) => row(d, -1000, 'Gym', 'Gym', 'b')),
    ];
    const found = detectRecurring(rows, '2025-12-10');
    expect(found).toHaveLength(1);
    expect(found[0]!.accountId).toBe('a');
  });

  it('marks a series that stopped as inactive', () => {
    const rows = ['2025-01-05', '2025-02-05', '2025-03-05', '2025-04-05'].map((d) => row(d, -1000, 'Old Tool'));
    expect(detectRecurring(rows, '2026-01-01')[0]?.active).toBe(false);
  });
});
