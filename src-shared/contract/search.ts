import { z } from 'zod';
import { multiValue } from './common';
import { defineRoute } from './route';

/**
 * Search across the team's records in the hosted result shape `[{id, type, relevance, created_at, data}]`
 * (docs/decisions/0087-search.md). Full-text (SQLite FTS5, every word a prefix, ranked from the record and the query alone: 0194); a number also finds
 * invoices and transactions of that exact amount. Results of the types the credential may not read are left out.
 */
export const SEARCH_TYPES = ['customer', 'invoice', 'transaction', 'tracker_project', 'inbox', 'vault'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SearchQuery = z.object({
  searchTerm: z.string().max(200).optional().describe('words to find (prefix matching); empty: the newest records'),
  limit: z.coerce.number().int().min(1).max(100).default(30).describe('results at most, 1 to 100, default 30'),
  itemsPerTableLimit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .describe('results per type at most, 1 to 100, default 10'),
  types: multiValue(z.enum(SEARCH_TYPES)).describe('only these types (repeated key); vault means documents'),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchResult = z
  .object({
    id: z.string(),
    type: z.enum(SEARCH_TYPES),
    relevance: z.number().describe('higher is better; comparable within a type'),
    created_at: z.string(),
    data: z.record(z.string(), z.unknown()).describe('a summary of the record: its name and key figures'),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

export const searchRoutes = {
  search: defineRoute({
    method: 'GET',
    path: '/search',
    tag: 'search',
    summary: 'Search customers, invoices, transactions, tracker projects, inbox items and documents',
    scopes: ['search.read'],
    query: SearchQuery,
    responses: { 200: z.array(SearchResult) },
  }),
};
