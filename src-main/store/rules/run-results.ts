import type { Db } from '../db';
import { newId } from '../ids';
import { write } from '../write';
import { getRule } from './rules';

/** What a run of the rules leaves behind: each rule's match count and last match, and the failures to show. */

/** After a run (not a dry run): how often each rule matched, and the failures to keep for the API. */
export function recordRuleRun(
  db: Db,
  teamId: string,
  matches: ReadonlyMap<string, number>,
  failures: readonly { ruleId: string; transactionId: string; message: string }[],
): void {
  write(db, teamId, (w) => {
    for (const [ruleId, n] of matches) {
      if (n === 0) continue;
      const count = db.prepare('SELECT match_count FROM rules WHERE team_id = ? AND id = ?').pluck().get(teamId, ruleId) as
        | number
        | undefined;
      if (count === undefined) continue;
      w.update('rule', ruleId, { match_count: count + n, last_matched_at: w.now });
    }
    const insert = db.prepare(
      'INSERT INTO rule_failures (id, team_id, rule_id, transaction_id, message, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const f of failures) insert.run(newId(), teamId, f.ruleId, f.transactionId, f.message, w.now);
  });
}

export function listRuleFailures(
  db: Db,
  teamId: string,
  ruleId: string,
): { transactionId: string | null; message: string; createdAt: string }[] {
  getRule(db, teamId, ruleId);
  return db
    .prepare(
      `SELECT transaction_id AS transactionId, message, created_at AS createdAt FROM rule_failures
       WHERE team_id = ? AND rule_id = ? ORDER BY created_at DESC, id DESC LIMIT 500`,
    )
    .all(teamId, ruleId) as { transactionId: string | null; message: string; createdAt: string }[];
}
