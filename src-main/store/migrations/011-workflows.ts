import type { Migration } from './index';

/**
 * Workflows: definitions, versions, runs, steps: reserved during development (the owner fills it in; until the first release a migration may still change).
 */
export const workflows: Migration = {
  version: 11,
  name: 'workflows',
  sql: '',
};
