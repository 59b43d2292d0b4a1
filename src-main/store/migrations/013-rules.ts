import type { Migration } from './index';

/**
 * Rules and recurring series (docs/decisions/0130–0132).
 * - rules: a team's categorization rules; `conditions` (a tree) and `actions` are JSON validated by the contract
 *   (src-shared/contract/rules.ts) and evaluated by src-shared/domain/rules.ts. `apply_on` says when a rule runs by
 *   itself (on import, on manual creation); any rule can be run on history on demand. `match_count` and
 *   `last_matched_at` feed the linter ("never matched in 12 months").
 * - rule_failures: actions that could not apply (a split larger than the line), per rule and transaction, kept so
 *   failures are visible over the API, never only in a log.
 * - recurring_series: series detected from history (src-shared/domain/recurring.ts), keyed by account, currency,
 *   direction and payee; `transactions.recurring_series_id` links the occurrences.
 */
export const rules: Migration = {
  version: 13,
  name: 'rules',
  sql: `
CREATE TABLE rules (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  stage TEXT NOT NULL DEFAULT 'default' CHECK (stage IN ('pre', 'default', 'post')),
  enabled INTEGER NOT NULL DEFAULT 1,
  conditions TEXT NOT NULL,
  actions TEXT NOT NULL,
  apply_on TEXT NOT NULL DEFAULT '["import","create"]',
  match_count INTEGER NOT NULL DEFAULT 0,
  last_matched_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX rules_team ON rules(team_id);

CREATE TABLE rule_failures (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  rule_id TEXT NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
  transaction_id TEXT,
  message TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX rule_failures_rule ON rule_failures(team_id, rule_id, created_at);

CREATE TABLE recurring_series (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  payee TEXT NOT NULL,
  bank_account_id TEXT,
  currency TEXT NOT NULL,
  frequency TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  next_amount_minor INTEGER NOT NULL,
  first_date TEXT NOT NULL,
  last_date TEXT NOT NULL,
  next_date TEXT NOT NULL,
  occurrences INTEGER NOT NULL,
  active INTEGER NOT NULL,
  price_changed INTEGER NOT NULL DEFAULT 0,
  category_slug TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX recurring_series_key ON recurring_series(team_id, key);

ALTER TABLE transactions ADD COLUMN recurring_series_id TEXT;
CREATE INDEX transactions_series ON transactions(team_id, recurring_series_id);
`,
};
