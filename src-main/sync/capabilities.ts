import type { SyncEntity } from '../../src-shared/domain/sync/fields';
import type { RemoteKind } from '../store/sync/remotes';
import { ADAPTERS } from './adapters';
import type { EntityCapability, RemoteCapabilities } from './adapters/capability';

export type {
  CreateCapability,
  EntityCapability,
  ListCapability,
  RemoteCapabilities,
  UpdateCapability,
} from './adapters/capability';

/**
 * What each kind of remote can do with each synced entity (docs/decisions/0140-sync-engine.md, the table there is
 * this one in words). A Finops Desk server has a change feed (`GET /v1/sync/changes`) and takes client-chosen ids
 * and Idempotency-Keys on every create; the hosted service (shared/spec/hosted-service-facts.md) has neither for
 * most entities, has no category routes, lists tracker entries only by date range, and wants a customer PATCH with
 * its name, email and tags. `finops serve --spec-only` serves only the spec's and the hosted service's routes, so the
 * generic path (walks, read-back before a retried create) runs against a real server in the tests. Each entity's
 * entry is its adapter's (adapters/<entity>.ts).
 */
function entitiesOf(kind: RemoteKind): { readonly [E in SyncEntity]: EntityCapability | null } {
  const out = {} as Record<SyncEntity, EntityCapability | null>;
  for (const [entity, adapter] of Object.entries(ADAPTERS) as [SyncEntity, (typeof ADAPTERS)[SyncEntity]][]) {
    out[entity] = kind === 'finops' ? adapter.finops : adapter.hosted;
  }
  return out;
}

export const FINOPS: RemoteCapabilities = { kind: 'finops', feed: true, entities: entitiesOf('finops') };
export const HOSTED: RemoteCapabilities = { kind: 'hosted', feed: false, entities: entitiesOf('hosted') };

export function capabilitiesOf(kind: RemoteKind): RemoteCapabilities {
  return kind === 'finops' ? FINOPS : HOSTED;
}

export function pathFor(template: string, id: string): string {
  return template.replace(':id', encodeURIComponent(id));
}
