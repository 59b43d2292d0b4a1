import type { SyncEntity } from '../../../src-shared/domain/sync/fields';
import type { Json, Projection } from '../../../src-shared/domain/sync/merge';
import type { EntityCapability } from './capability';
import type { Api } from './values';

/** Category parent ids of a remote, by id → slug (a remote's category record names its parent by id). */
export type SlugOfId = (remoteCategoryId: string) => string | null;

export interface FromApiContext {
  slugOfCategory?: SlugOfId;
}

/**
 * Everything the sync engine knows of one synced resource, in one place (issue 34, "one adapter per resource"),
 * beside its fields and merge groups (the contract's: `SYNC_SPECS[entity]` in src-shared): how a remote's API body
 * becomes a projection and back, what tells two records apart where ids do not, and what each kind of remote can do
 * with it.
 * A new synced resource is one adapter file and one line in ./index.ts; the registry's type and
 * test/main/sync/adapters.test.ts fail while an entity has none.
 */
export interface SyncAdapter<E extends SyncEntity = SyncEntity> {
  entity: E;
  /** A record as a remote's API answers it, as a projection (references still in the remote's ids). */
  fromApi(r: Api, ctx: FromApiContext): Projection;
  /**
   * The body for these projection fields (references already the remote's ids): major units, the API's names, no
   * derived fields. `full` is the whole projection (a money field needs its currency); `forCreate` for a create.
   */
  body(fields: Readonly<Record<string, Json>>, full: Projection, forCreate: boolean): Record<string, unknown>;
  /**
   * The natural fields: what names a record where ids do not (a remote that takes no client id names ours by its
   * own; a first round's records). Never unique: one is matched to one.
   */
  natural?: readonly string[];
  /** Instead of natural fields, a comparison of its own (an invoice: its number and content). */
  sameRecord?(a: Projection, b: Projection): boolean;
  /** What a Finops Desk remote and the hosted service can do with it; null: it does not travel there. */
  finops: EntityCapability | null;
  hosted: EntityCapability | null;
}
