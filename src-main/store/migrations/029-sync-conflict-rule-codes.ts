import type { Migration } from './index';

/**
 * Issue 36, the sync rule in the user's language: `sync_conflicts.rule_code`, the stated rule as a code of the closed
 * list in src-shared/domain/sync/conflict-rules.ts, and `rule_params`, its sentence's variable parts as JSON
 * (docs/decisions/0193-conflict-rule-codes.md). The English `rule` stays beside them for the CLI; rows from before
 * have no code and show their English sentence.
 */
export const syncConflictRuleCodes: Migration = {
  version: 29,
  name: 'sync conflict rule codes',
  sql: `ALTER TABLE sync_conflicts ADD COLUMN rule_code TEXT;
ALTER TABLE sync_conflicts ADD COLUMN rule_params TEXT;`,
};
