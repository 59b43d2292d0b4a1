import type { Migration } from './index';

/**
 * Reserved for another area's migration 015 (issue 28 gave 016 to this branch); it makes no change. Replaced by that
 * migration when the branches merge: a data dir migrated past 15 with this placeholder only exists in development.
 */
export const reserved15: Migration = { version: 15, name: 'reserved', sql: '' };
