import type { Migration } from './index';

/**
 * Web sign-in sessions: reserved during development (the owner fills it in; until the first release a migration may still change).
 */
export const webSessions: Migration = {
  version: 12,
  name: 'web-sessions',
  sql: '',
};
