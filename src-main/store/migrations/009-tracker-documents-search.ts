import type { Migration } from './index';

/**
 * Tracker, documents, inbox, search: reserved during development (the owner fills it in; until the first release a migration may still change).
 */
export const trackerDocumentsSearch: Migration = {
  version: 9,
  name: 'tracker-documents-search',
  sql: '',
};
