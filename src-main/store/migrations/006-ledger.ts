import type { Migration } from './index';

/**
 * Ledger: transactions, splits, review states, running balances, FX rates, roll-ups: reserved during development (the owner fills it in; until the first release a migration may still change).
 */
export const ledger: Migration = {
  version: 6,
  name: 'ledger',
  sql: '',
};
