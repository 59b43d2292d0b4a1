import { SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import type { Json, Projection } from '../../src-shared/domain/sync/merge';
import { currencyExponent } from '../../src-shared/money';
import { adapterOf } from './adapters';
import type { FromApiContext } from './adapters/adapter';

export type { FromApiContext, SlugOfId } from './adapters/adapter';

/**
 * Between sync projections and the v1 API's bodies (docs/decisions/0140-sync-engine.md). `fromApi` turns a record
 * as a remote's API answers it into a projection (references still in the remote's ids); `createBody` and
 * `patchBody` turn a projection (references already rewritten to the remote's ids) into what the remote's create
 * and update routes take: major units, the API's field names, no derived fields. The hosted service and a Finops
 * Desk server share these shapes; where they differ the capability table (capabilities.ts) says so. Each entity's mapping is its adapter's
 * (adapters/<entity>.ts).
 */

export function fromApi(entity: SyncEntity, record: unknown, ctx: FromApiContext = {}): Projection {
  return adapterOf(entity).fromApi((record ?? {}) as Record<string, unknown>, ctx);
}

export function patchBody(entity: SyncEntity, fields: Readonly<Record<string, Json>>, full: Projection): Record<string, unknown> {
  const createOnly = new Set(SYNC_SPECS[entity].fields.filter((f) => f.createOnly).map((f) => f.name));
  const writable: Record<string, Json> = {};
  for (const [k, v] of Object.entries(fields)) if (!createOnly.has(k)) writable[k] = v;
  return adapterOf(entity).body(writable, full, false);
}

export function createBody(entity: SyncEntity, p: Projection): Record<string, unknown> {
  return adapterOf(entity).body(p, p, true);
}

/** Exponent check for money fields (a currency the remote and we both know). */
export function knownCurrency(code: string): boolean {
  try {
    currencyExponent(code);
    return true;
  } catch {
    return false;
  }
}
