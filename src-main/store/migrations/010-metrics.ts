import type { Migration } from './index';

/**
 * Metrics: forecasts and stress tests: reserved during development (the owner fills it in; until the first release a migration may still change).
 */
export const metrics: Migration = {
  version: 10,
  name: 'metrics',
  sql: '',
};
