/**
 * The reconciliation's sentences, said from the preview's figures in the user's language and formats (the server's
 * `message` and candidate `reason` are English with ISO dates and plain numbers: "127899.74", "2026-11-30").
 * The candidate's case follows from its status, date and amount, as the server chose it.
 */
import type { z } from 'zod';
import type { ReconciliationCandidate, ReconciliationPreview } from '../../../src-shared/contract/reconciliation';
import { t } from '../../i18n';
import { formatAmount, formatDate } from '../../lib/format';

type Preview = z.infer<typeof ReconciliationPreview>;
type Candidate = z.infer<typeof ReconciliationCandidate>;

export function reconcileMessage(p: Preview): string {
  const day = formatDate(p.statementDate);
  const statement = formatAmount(p.statementBalance, p.currency);
  return p.balanced
    ? t('import:reconcile.balanced', { count: p.toMark + p.reconciledBefore, day, statement })
    : t('import:reconcile.unbalanced', {
        day,
        statement,
        cleared: formatAmount(p.clearedBalance, p.currency),
        difference: formatAmount(p.difference, p.currency),
      });
}

const NOT_COUNTED = new Set(['pending', 'excluded', 'archived']);

export function candidateReason(c: Candidate, p: Preview): string {
  const gap = formatAmount(p.difference, p.currency);
  if (c.status === 'pending')
    return c.amount === p.difference ? t('import:reconcile.pendingCloses', { gap }) : t('import:reconcile.pending');
  if (NOT_COUNTED.has(c.status)) return t('import:reconcile.notCounted', { status: t(`transactions:statuses.${c.status}`) });
  if (c.date.slice(0, 10) > p.statementDate)
    return t('import:reconcile.after', { day: formatDate(c.date.slice(0, 10)), statementDay: formatDate(p.statementDate) });
  return t('import:reconcile.counted');
}
