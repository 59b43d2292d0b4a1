import type { Migration } from './index';

/**
 * Invoices: line items, numbering, send queue, payments: reserved during development (the owner fills it in; until the first release a migration may still change).
 */
export const invoices: Migration = {
  version: 8,
  name: 'invoices',
  sql: '',
};
