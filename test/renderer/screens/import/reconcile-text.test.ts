import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n';
import { setFormatPreferences } from '../../../../src-renderer/lib/format';
import { candidateReason, reconcileMessage } from '../../../../src-renderer/screens/import/reconcile-text';

const preview = {
  bankAccountId: 'a',
  currency: 'EUR',
  statementDate: '2026-11-30',
  statementBalance: 127899.74,
  clearedBalance: 127850.74,
  difference: 49,
  reconciledBefore: 2,
  toMark: 5,
  balanced: false,
  candidates: [],
  message: 'The cleared transactions up to 2026-11-30 add up to 127850.74 EUR…',
};
const candidate = { transactionId: 't', date: '2026-12-02', amount: 49, name: 'Cloud Hosting AG', status: 'posted', reason: '' };

beforeEach(async () => {
  setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy' });
  await i18n.changeLanguage('de');
});
afterEach(async () => {
  setFormatPreferences({ locale: 'en', dateFormat: 'yyyy-MM-dd' });
  await i18n.changeLanguage('en');
});

describe('the reconciliation’s sentences', () => {
  it('say the figures in the user’s language and formats, not the server’s "127899.74" and ISO days', () => {
    expect(reconcileMessage(preview)).toBe(
      'Die gebuchten Umsätze bis 30.11.2026 ergeben 127.850,74 €, der Auszug sagt 127.899,74 €: eine Differenz von 49,00 €.',
    );
    expect(reconcileMessage({ ...preview, balanced: true, difference: 0 })).toBe(
      'Die 7 gebuchten Umsätze bis 30.11.2026 ergeben den Saldo des Auszugs von 127.899,74 €.',
    );
  });

  it('give each candidate line its case', () => {
    expect(candidateReason(candidate, preview)).toMatch(/^datiert auf 02\.12\.2026, nach dem Auszug: .* bis 30\.11\.2026 /);
    expect(candidateReason({ ...candidate, status: 'pending' }, preview)).toContain('Lücke von 49,00 €');
    expect(candidateReason({ ...candidate, status: 'pending', amount: 3 }, preview)).toBe('vorgemerkt und daher nicht gezählt');
    expect(candidateReason({ ...candidate, status: 'excluded' }, preview)).toMatch(/^Ausgeschlossen und daher nicht gezählt/);
    expect(candidateReason({ ...candidate, date: '2026-11-20' }, preview)).toMatch(/^gezählt: /);
  });
});
