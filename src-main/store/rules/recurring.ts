import type { RecurringSeries } from '../../../src-shared/contract/rules';
import type { DetectedSeries, HistoryRow } from '../../../src-shared/domain/recurring';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { updateTransactions } from '../transactions/update';
import { write } from '../write';

/** Recurring series: the history detection reads, the series it found, and marking their transactions recurring. */

export function recurringHistory(db: Db, teamId: string, since: string): HistoryRow[] {
  return db
    .prepare(
      `SELECT id, date, amount_minor AS amountMinor, currency, bank_account_id AS accountId, counterparty_name AS counterparty, name
       FROM transactions WHERE team_id = ? AND date >= ? AND status <> 'excluded' AND coalesce(internal, 0) = 0`,
    )
    .all(teamId, since) as HistoryRow[];
}

interface SeriesRow {
  id: string;
  payee: string;
  bank_account_id: string | null;
  currency: string;
  frequency: string;
  amount_minor: number;
  next_amount_minor: number;
  first_date: string;
  last_date: string;
  next_date: string;
  occurrences: number;
  active: number;
  price_changed: number;
  category_slug: string | null;
}

function toSeries(r: SeriesRow): RecurringSeries {
  return {
    id: r.id,
    payee: r.payee,
    bankAccountId: r.bank_account_id,
    currency: r.currency,
    frequency: r.frequency,
    amount: toMajor(r.amount_minor, r.currency),
    nextAmount: toMajor(r.next_amount_minor, r.currency),
    firstDate: r.first_date,
    lastDate: r.last_date,
    nextDate: r.next_date,
    occurrences: r.occurrences,
    active: r.active === 1,
    priceChanged: r.price_changed === 1,
    categorySlug: r.category_slug,
  };
}

export function getRecurringSeries(db: Db, teamId: string, id: string): RecurringSeries {
  const row = db.prepare('SELECT * FROM recurring_series WHERE team_id = ? AND id = ?').get(teamId, id) as SeriesRow | undefined;
  if (!row) throw new NotFound('recurring series', id);
  return toSeries(row);
}

export function listRecurringSeries(db: Db, teamId: string): RecurringSeries[] {
  return (
    db
      .prepare('SELECT * FROM recurring_series WHERE team_id = ? ORDER BY active DESC, next_date, payee')
      .all(teamId) as SeriesRow[]
  ).map(toSeries);
}

/**
 * Stores detected series (upsert by key; series no longer detected are marked inactive) and marks their
 * transactions recurring with the series' frequency, leaving fields a person set. Returns the transactions marked.
 */
export function saveRecurringSeries(db: Db, teamId: string, detected: readonly DetectedSeries[]): number {
  return write(
    db,
    teamId,
    (w) => {
      const existing = new Map(
        (db.prepare('SELECT id, key FROM recurring_series WHERE team_id = ?').all(teamId) as { id: string; key: string }[]).map(
          (r) => [r.key, r.id],
        ),
      );
      let marked = 0;
      const seen = new Set<string>();
      for (const s of detected) {
        const category = db
          .prepare(
            `SELECT category_slug FROM transactions WHERE team_id = ? AND id IN (SELECT value FROM json_each(?)) AND category_slug IS NOT NULL
             GROUP BY category_slug ORDER BY count(*) DESC LIMIT 1`,
          )
          .pluck()
          .get(teamId, JSON.stringify(s.transactionIds)) as string | undefined;
        const values = {
          payee: s.payee,
          bank_account_id: s.accountId,
          currency: s.currency,
          frequency: s.frequency,
          amount_minor: s.amountMinor,
          next_amount_minor: s.nextAmountMinor,
          first_date: s.firstDate,
          last_date: s.lastDate,
          next_date: s.nextDate,
          occurrences: s.transactionIds.length,
          active: s.active ? 1 : 0,
          price_changed: s.priceChanged ? 1 : 0,
          category_slug: category ?? null,
        };
        let id = existing.get(s.key);
        if (id) w.update('recurring_series', id, values);
        else id = w.insert('recurring_series', { key: s.key, ...values });
        seen.add(s.key);
        const toMark = db
          .prepare(
            `SELECT id FROM transactions WHERE team_id = ? AND id IN (SELECT value FROM json_each(?))
             AND (coalesce(recurring, 0) = 0 OR frequency IS NOT ? OR recurring_series_id IS NOT ?)`,
          )
          .pluck()
          .all(teamId, JSON.stringify(s.transactionIds), s.frequency, id) as string[];
        if (toMark.length > 0) {
          updateTransactions(
            db,
            teamId,
            toMark,
            { recurring: true, frequency: s.frequency, extra: { recurring_series_id: id } },
            {
              source: 'system',
              sourceId: id,
              respectLocks: true,
            },
          );
          marked += toMark.length;
        }
      }
      for (const [key, id] of existing) if (!seen.has(key)) w.update('recurring_series', id, { active: 0 });
      return marked;
    },
    { origin: 'system' },
  );
}
