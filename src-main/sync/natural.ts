import type { SyncEntity } from '../../src-shared/domain/sync/fields';
import { canonicalJson, type Json, type Projection, sameJson } from '../../src-shared/domain/sync/merge';
import { adapterOf } from './adapters';

/**
 * The natural fields of a record (issue 34): what tells two records apart where ids do not — a remote that takes no
 * client id (the hosted service) names our record by its own id, so an unanswered create is read back by these
 * fields, and a record of a first round is recognised by them. They are never unique: two identical lines are
 * interchangeable, so one is matched to one, never two to one. Each entity's are its adapter's (`natural`, or an
 * invoice's `sameRecord`).
 */
const fold = (v: Json | undefined) => (typeof v === 'string' ? v.trim().toLowerCase() : v);

/** Whether two projections (the same ids on both) name the same thing by their natural fields. */
export function sameNatural(entity: SyncEntity, a: Projection, b: Projection): boolean {
  const adapter = adapterOf(entity);
  if (adapter.sameRecord) return adapter.sameRecord(a, b);
  const fields = adapter.natural;
  if (!fields) return false;
  return fields.every((f) => sameJson(fold(a[f]) as Json, fold(b[f]) as Json));
}

/** Whether the entity has natural fields to match by. */
export function hasNaturalFields(entity: SyncEntity): boolean {
  const adapter = adapterOf(entity);
  return adapter.sameRecord !== undefined || adapter.natural !== undefined;
}

/**
 * A record's natural fields as one comparable text (folded as sameNatural folds them); undefined for an entity
 * without natural fields, or one matched otherwise (an invoice by its number and content).
 */
export function naturalKeyOf(entity: SyncEntity, p: Projection): string | undefined {
  const fields = adapterOf(entity).natural;
  if (!fields) return undefined;
  return canonicalJson(fields.map((f) => (fold(p[f]) ?? null) as Json));
}
