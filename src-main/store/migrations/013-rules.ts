import type { Migration } from './index';

/**
 * Rules: categorization rules, their runs and suggestions, recurring series: reserved during development (the owner
 * fills it in; until the first release a migration may still change).
 */
export const rules: Migration = {
  version: 13,
  name: 'rules',
  sql: '',
};
