/**
 * What the search box makes of `/v1/search` answers (docs/decisions/0087): results grouped by type in a fixed order
 * (customers, invoices, transactions, projects, inbox, documents), each once; its title and the facts under it; and
 * where opening it leads: a screen's page, or, for inbox items and documents (which have no screen yet), their file.
 */
import { SEARCH_TYPES, type SearchResult, type SearchType } from '../../../src-shared/contract/search';

export const GROUP_ORDER: readonly SearchType[] = ['customer', 'invoice', 'transaction', 'tracker_project', 'inbox', 'vault'];

export interface ResultGroup {
  type: SearchType;
  results: SearchResult[];
}

/** The results by type in the groups' order, each record once, best first within its type. */
export function groupResults(results: readonly SearchResult[]): ResultGroup[] {
  const seen = new Set<string>();
  const byType = new Map<SearchType, SearchResult[]>(SEARCH_TYPES.map((t) => [t, []]));
  for (const r of results) {
    const key = `${r.type} ${r.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    byType.get(r.type)?.push(r);
  }
  return GROUP_ORDER.map((type) => ({
    type,
    results: [...(byType.get(type) ?? [])].sort((a, b) => b.relevance - a.relevance),
  })).filter((g) => g.results.length > 0);
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The result's name as a person knows it. */
export function titleOf(r: SearchResult): string {
  const d = r.data;
  switch (r.type) {
    case 'invoice':
      return str(d.invoiceNumber) ?? r.id;
    case 'inbox':
      return str(d.displayName) ?? str(d.fileName) ?? r.id;
    case 'vault':
      return str(d.title) ?? str(d.fileName) ?? r.id;
    default:
      return str(d.name) ?? r.id;
  }
}

/** The facts under the title: a name or address, a day, a code to put in words (`status`), an amount. */
export interface ResultFacts {
  text: string | null;
  day: string | null;
  status: string | null;
  amount: { value: number; currency: string } | null;
}

export function factsOf(r: SearchResult): ResultFacts {
  const d = r.data;
  const value = num(d.amount);
  const currency = str(d.currency);
  const amount = value !== null && currency ? { value, currency } : null;
  switch (r.type) {
    case 'customer':
      return { text: str(d.email) ?? str(d.website), day: null, status: null, amount: null };
    case 'invoice':
      return { text: str(d.customerName), day: str(d.dueDate), status: str(d.status), amount };
    case 'transaction':
      return { text: null, day: str(d.date), status: null, amount };
    case 'tracker_project':
      return { text: null, day: null, status: str(d.status), amount: null };
    case 'inbox':
      return { text: str(d.fileName), day: str(d.date), status: null, amount };
    case 'vault':
      return { text: str(d.fileName), day: str(d.date), status: null, amount: null };
  }
}

export type Target = { path: string } | { file: 'inbox' | 'vault'; id: string; fileName: string };

/** Where opening a result leads. */
export function targetOf(r: SearchResult): Target {
  const id = encodeURIComponent(r.id);
  switch (r.type) {
    case 'customer':
      return { path: `/customers/${id}` };
    case 'invoice':
      return { path: `/invoices/${id}` };
    case 'tracker_project':
      return { path: `/time?project=${id}` };
    case 'transaction': {
      // The transactions screen narrowed to this one: its name on its day, in every review state.
      const p = new URLSearchParams({ state: 'all', q: titleOf(r) });
      const day = str(r.data.date);
      if (day) {
        p.set('from', day);
        p.set('to', day);
      }
      return { path: `/transactions?${p}` };
    }
    case 'inbox':
    case 'vault':
      return { file: r.type, id: r.id, fileName: str(r.data.fileName) ?? titleOf(r) };
  }
}
