import { subscribe } from '../store/events';
import { applyRules } from './apply';

/**
 * Runs the team's import rules (and confident category suggestions) on the transactions an import created, in the
 * import's own transaction, so a batch and what its rules set commit or roll back together. Rows pulled from a sync
 * remote are never run through local rules: the replica that imported them did that.
 */
export function subscribeImportRules(): () => void {
  return subscribe('transactions.imported', (w, event) => {
    if (!event.runRules || w.origin === 'sync' || event.transactionIds.length === 0) return;
    applyRules(w.db, w.teamId, event.transactionIds, { trigger: 'import' });
  });
}
