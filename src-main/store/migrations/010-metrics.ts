import type { Migration } from './index';

/**
 * Metrics (docs/decisions/0090–0094): saved forecasts and stress tests, and one index for reading recurring
 * transactions.
 *
 * - forecasts: every computed cash-flow or revenue forecast, with its inputs (window, horizon, currency) and its
 *   result as the API shows it (JSON). `GET /v1/metrics/forecast/{kind}` reads the latest row with the same inputs.
 *   Results are modelled outputs that keep their inputs (spec rule 4): never recomputed in place.
 * - stress_tests: every run stress test, with its name, inputs (window, horizon, currency, starting cash, drivers as
 *   sent, normalised) and its result (JSON).
 * - transactions_team_recurring: a partial index over the (few) recurring transactions, so a forecast reads the
 *   recurring series without scanning a large ledger.
 * Months of the ledger come from `ledger_daily` (migration 006), which every ledger write keeps right: no monthly
 * roll-up of its own is needed (the daily one answers a window in a few milliseconds; see bench/metrics.ts).
 */
export const metrics: Migration = {
  version: 10,
  name: 'metrics',
  sql: `
CREATE TABLE forecasts (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('cash_flow', 'revenue')),
  from_day TEXT NOT NULL,
  to_day TEXT NOT NULL,
  horizon_months INTEGER NOT NULL CHECK (horizon_months BETWEEN 1 AND 60),
  currency TEXT NOT NULL,
  result TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX forecasts_inputs ON forecasts(team_id, kind, from_day, to_day, horizon_months, currency, created_at);

CREATE TABLE stress_tests (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT,
  from_day TEXT NOT NULL,
  to_day TEXT NOT NULL,
  horizon_months INTEGER NOT NULL CHECK (horizon_months BETWEEN 1 AND 24),
  currency TEXT NOT NULL,
  inputs TEXT NOT NULL,
  result TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX stress_tests_team ON stress_tests(team_id, created_at, id);

CREATE INDEX transactions_team_recurring ON transactions(team_id, date, id) WHERE recurring = 1;
`,
};
