import type { SearchQuery, SearchResult, SearchType } from '../../../src-shared/contract/search';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { ftsQuery, ftsWords } from '../list/fts';
import { type ScoredColumn, textScore, WHOLE_WORDS } from './relevance';

/**
 * Search over the FTS5 indexes of customers (migration 002), transactions (006) and invoices, tracker projects,
 * documents and inbox items (009), each holding its rows' team as a token (030; docs/decisions/0087-search.md,
 * 0194-search-per-team.md). Every type's matches are joined back to its table on the team, so another team's records
 * never appear; which of the team's records are ranked, and how, never depends on another team's rows.
 *
 * The team's newest WINDOW matches of a type (by `search_rowid`, the order the team's records were written) are
 * ranked by `textScore` (relevance.ts: the record and the words alone, no corpus statistics), plus WHOLE_WORDS when
 * every word is a whole word of the record. Whole words are asked first, since FTS5 streams those from the index;
 * the words as prefixes (the contract's match) only when that finds fewer than `itemsPerTableLimit`. Each type is
 * capped by `itemsPerTableLimit`, the whole by `limit`. A numeric term also finds invoices and transactions with
 * exactly that amount (relevance 1000: an exact figure beats any word match).
 */

interface Source {
  fts: string;
  table: string;
  /** Columns of the table row (alias x) to select as the result's data, with how to shape them. */
  columns: string;
  data: (r: Record<string, unknown>) => Record<string, unknown>;
  /** The indexed columns of the table with their weights in the score (the team token is not one). */
  scored: readonly (readonly [column: string, weight: number])[];
  /** For numeric terms: the condition matching an exact amount (bind @minor). */
  amount?: string;
}

const money = (minor: unknown, currency: unknown) =>
  typeof minor === 'number' && typeof currency === 'string' ? toMajor(minor, currency) : null;

const SOURCES: Record<SearchType, Source> = {
  customer: {
    fts: 'customers_fts',
    table: 'customers',
    columns: 'x.name, x.email, x.website, x.country_code',
    data: (r) => ({ name: r.name, email: r.email, website: r.website, countryCode: r.country_code }),
    scored: [
      ['name', 2],
      ['email', 1],
      ['billing_email', 1],
      ['contact', 1],
      ['phone', 1],
      ['website', 1],
      ['city', 1],
      ['vat_number', 1],
      ['note', 0.5],
    ],
  },
  invoice: {
    fts: 'invoices_fts',
    table: 'invoices',
    columns: 'x.invoice_number, x.customer_name, x.customer_id, x.status, x.amount_minor, x.currency, x.due_date',
    data: (r) => ({
      invoiceNumber: r.invoice_number || null,
      customerName: r.customer_name,
      customerId: r.customer_id,
      status: r.status,
      amount: money(r.amount_minor, r.currency),
      currency: r.currency,
      dueDate: r.due_date,
    }),
    scored: [
      ['invoice_number', 2],
      ['customer_name', 2],
      ['note', 0.5],
    ],
    amount: 'x.amount_minor = @minor',
  },
  transaction: {
    fts: 'transactions_fts',
    table: 'transactions',
    columns: 'x.name, x.amount_minor, x.currency, x.date, x.status',
    data: (r) => ({
      name: r.name,
      amount: money(r.amount_minor, r.currency),
      currency: r.currency,
      date: r.date,
      status: r.status,
    }),
    scored: [
      ['name', 2],
      ['description', 1],
      ['counterparty_name', 1.5],
      ['merchant_name', 1.5],
      ['note', 0.5],
    ],
    // Both signs through the (team_id, amount_minor) index: abs() would read every row of the team.
    amount: 'x.amount_minor IN (@minor, -@minor)',
  },
  tracker_project: {
    fts: 'tracker_projects_fts',
    table: 'tracker_projects',
    columns: 'x.name, x.status, x.customer_id, x.billable',
    data: (r) => ({ name: r.name, status: r.status, customerId: r.customer_id, billable: r.billable === 1 }),
    scored: [
      ['name', 2],
      ['description', 1],
    ],
  },
  inbox: {
    fts: 'inbox_items_fts',
    table: 'inbox_items',
    columns: 'x.display_name, x.file_name, x.amount_minor, x.currency, x.date, x.status',
    data: (r) => ({
      displayName: r.display_name,
      fileName: r.file_name,
      amount: money(r.amount_minor, r.currency),
      currency: r.currency,
      date: r.date,
      status: r.status,
    }),
    scored: [
      ['display_name', 2],
      ['file_name', 1],
      ['description', 1],
      ['website', 1],
      ['content', 0.5],
    ],
  },
  vault: {
    fts: 'documents_fts',
    table: 'documents',
    columns: 'x.title, x.file_name, x.mimetype, x.processing_status, x.date',
    data: (r) => ({
      title: r.title,
      fileName: r.file_name,
      mimetype: r.mimetype,
      processingStatus: r.processing_status,
      date: r.date,
    }),
    scored: [
      ['title', 2],
      ['file_name', 1],
      ['summary', 1],
      ['content', 0.5],
    ],
  },
};

/** An amount-looking term ("23.40", "1,234.56", "-12") as minor units at exponent 2, or undefined. */
function amountTerm(term: string | undefined): number | undefined {
  const t = term?.trim().replace(/^-/, '') ?? '';
  if (!/^\d{1,12}([.,]\d{1,2})?$/.test(t)) return undefined;
  const [int = '0', frac = ''] = t.split(/[.,]/);
  return Number(int) * 100 + Number(frac.padEnd(2, '0'));
}

/**
 * How many of the team's newest matches of one type are ranked. Ranking is exact while a query matches at most this
 * many of a type's records; beyond, the newest this many are ranked (the rest is never read: bounded time and memory
 * for a word on every record). At least the largest `itemsPerTableLimit` (100).
 */
export const WINDOW = 100;

/** A scored column is read up to this many characters (extracted document text can be long). */
const SCORED_CHARS = 2000;

/** The FTS5 query of a team's rows matching `words` (FTS5 syntax from ftsQuery, or quoted whole words). */
const TEAM_MATCH = `'search_team : "' || char(57344) || hex(@team) || '" AND (' || @words || ')'`;

type Row = Record<string, unknown>;

/** How many of every team's newest matches are read before the team's token is asked to narrow them. */
const SCAN = 4 * WINDOW;

/**
 * The team's newest WINDOW rows of a type matching `words`, newest first. First from the newest SCAN matches of all
 * teams (a rare word is cheapest so: the team token's list in a team of a million rows costs ms to intersect); when
 * they hold fewer than WINDOW of the team's and more may exist, with the team's token in the MATCH, which visits
 * only the team's rows. Both give the same rows: only the time can depend on other teams' rows.
 *
 * Whole words (`countFirst`) are counted first, which FTS5 does from the index in µs, so a type without any match
 * costs one small statement; a prefix of four letters or more makes FTS5 merge the lists of every word it begins
 * (migration 002 indexes prefixes of 2 and 3 only), so prefixes are counted in the same statement, merged once.
 */
function matches(db: Db, s: Source, teamId: string, words: string, countFirst: boolean): Row[] {
  const scored = s.scored.map(([c], i) => `substr(x.${c}, 1, ${SCORED_CHARS}) AS s${i}`).join(', ');
  const select = `x.id, x.created_at, ${s.columns}, ${scored}`;
  const newestOfAll = `SELECT rowid AS r FROM ${s.fts} WHERE ${s.fts} MATCH @words ORDER BY rowid DESC LIMIT ${SCAN}`;
  let visited: number;
  let newest: Row[];
  if (countFirst) {
    visited = db.prepare(`SELECT count(*) FROM (${newestOfAll})`).pluck().get({ words }) as number;
    if (visited === 0) return [];
    newest = db
      .prepare(
        `SELECT ${select} FROM (${newestOfAll}) m CROSS JOIN ${s.table} x ON x.search_rowid = m.r
         WHERE x.team_id = @team ORDER BY m.r DESC LIMIT ${WINDOW}`,
      )
      .all({ team: teamId, words }) as Row[];
  } else {
    // One row at least (the count of matches visited), so "none of the team's" needs no second query.
    const rows = db
      .prepare(
        `WITH m AS MATERIALIZED (${newestOfAll})
         SELECT v.visited, t.* FROM (SELECT count(*) AS visited FROM m) v
         LEFT JOIN (SELECT m.r, ${select} FROM m CROSS JOIN ${s.table} x ON x.search_rowid = m.r
                    WHERE x.team_id = @team ORDER BY m.r DESC LIMIT ${WINDOW}) t
         ORDER BY t.r DESC`,
      )
      .all({ team: teamId, words }) as Row[];
    visited = rows[0]!.visited as number;
    newest = rows.filter((r) => r.id !== null);
  }
  if (newest.length === WINDOW || visited < SCAN) return newest;
  return db
    .prepare(
      `SELECT ${select}
       FROM ${s.fts} JOIN ${s.table} x ON x.search_rowid = ${s.fts}.rowid
       WHERE ${s.fts} MATCH ${TEAM_MATCH} AND x.team_id = @team
       ORDER BY ${s.fts}.rowid DESC LIMIT ${WINDOW}`,
    )
    .all({ team: teamId, words }) as Row[];
}

/** The team's best `per` text matches of a type, each with its relevance. */
function ranked(db: Db, s: Source, teamId: string, words: readonly string[], per: number): Row[] {
  const whole = matches(db, s, teamId, words.map((w) => `"${w}"`).join(' '), true);
  const wholeIds = new Set(whole.map((r) => r.id as string));
  let candidates = whole;
  if (whole.length < per) {
    // Fewer whole-word matches than asked (so all of them are in `whole`): the words as prefixes.
    const byId = new Map(whole.map((r) => [r.id as string, r]));
    for (const r of matches(db, s, teamId, ftsQuery(words.join(' ')) ?? '', false)) byId.set(r.id as string, r);
    candidates = [...byId.values()];
  }
  const cache = new Map<string, readonly string[]>();
  for (const r of candidates) {
    const columns: ScoredColumn[] = s.scored.map(([, weight], i) => ({ text: r[`s${i}`] as string | null, weight }));
    r.relevance = (wholeIds.has(r.id as string) ? WHOLE_WORDS : 0) + textScore(words, columns, cache);
  }
  return candidates.sort(byRelevance).slice(0, per);
}

function byRelevance(a: Row, b: Row): number {
  const ra = a.relevance as number;
  const rb = b.relevance as number;
  const ca = a.created_at as string;
  const cb = b.created_at as string;
  return rb - ra || (ca < cb ? 1 : ca > cb ? -1 : 0);
}

export function search(db: Db, teamId: string, query: SearchQuery, allowed: readonly SearchType[]): SearchResult[] {
  const types = (query.types?.length ? query.types : allowed).filter((t) => allowed.includes(t));
  const words = ftsWords(query.searchTerm);
  const minor = amountTerm(query.searchTerm);
  const per = query.itemsPerTableLimit;
  const results: SearchResult[] = [];
  for (const type of types) {
    const s = SOURCES[type];
    const seen = new Set<string>();
    const add = (rows: Row[]) => {
      for (const r of rows) {
        const id = r.id as string;
        if (seen.has(id) || seen.size >= per) continue;
        seen.add(id);
        results.push({
          id,
          type,
          relevance: Math.round((r.relevance as number) * 10_000) / 10_000,
          created_at: r.created_at as string,
          data: s.data(r),
        });
      }
    };
    if (minor !== undefined && s.amount) {
      add(
        db
          .prepare(
            `SELECT x.id, x.created_at, 1000.0 AS relevance, ${s.columns} FROM ${s.table} x
             WHERE x.team_id = @team AND ${s.amount} ORDER BY x.created_at DESC LIMIT @per`,
          )
          .all({ team: teamId, minor, per }) as Row[],
      );
    }
    if (words.length > 0) {
      add(ranked(db, s, teamId, words, per));
    } else if (minor === undefined) {
      add(
        db
          .prepare(
            `SELECT x.id, x.created_at, 0.0 AS relevance, ${s.columns} FROM ${s.table} x
             WHERE x.team_id = @team ORDER BY x.created_at DESC LIMIT @per`,
          )
          .all({ team: teamId, per }) as Row[],
      );
    }
  }
  return results
    .sort((a, b) => b.relevance - a.relevance || (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    .slice(0, query.limit);
}
