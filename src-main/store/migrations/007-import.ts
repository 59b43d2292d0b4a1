import type { Migration } from './index';

/**
 * Import: batches, bank-row links, mappings, rules, recurring series: reserved during development (the owner fills it in; until the first release a migration may still change).
 */
export const importing: Migration = {
  version: 7,
  name: 'import',
  sql: '',
};
