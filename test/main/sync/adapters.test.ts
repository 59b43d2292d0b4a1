/**
 * One adapter per synced resource (src-main/sync/adapters/): every entity the store marks `synced` has one, under
 * its own name, with the contract's field list; its natural fields are fields of it; what it says a remote can do
 * is what the round's capability table holds.
 */
import { describe, expect, it } from 'vitest';
import { ENTITIES } from '../../../src-main/store/entities';
import { ADAPTERS } from '../../../src-main/sync/adapters';
import { FINOPS, HOSTED } from '../../../src-main/sync/capabilities';
import { SYNC_ORDER, SYNC_SPECS, type SyncEntity } from '../../../src-shared/domain/sync/fields';

const synced = Object.entries(ENTITIES)
  .filter(([, def]) => def.synced)
  .map(([name]) => name)
  .sort();

describe('sync adapters', () => {
  it('every entity the store syncs has an adapter, and no adapter is for one it does not', () => {
    expect(Object.keys(ADAPTERS).sort()).toEqual(synced);
    expect([...SYNC_ORDER].sort()).toEqual(synced);
  });

  it.each(Object.keys(ADAPTERS) as SyncEntity[])('%s: its own name, natural fields among the contract’s fields', (entity) => {
    const adapter = ADAPTERS[entity];
    expect(adapter.entity).toBe(entity);
    const spec = SYNC_SPECS[entity];
    const names = new Set(spec.fields.map((f) => f.name));
    for (const f of adapter.natural ?? []) expect(names.has(f), `${entity}.${f}`).toBe(true);
    expect(FINOPS.entities[entity]).toBe(adapter.finops);
    expect(HOSTED.entities[entity]).toBe(adapter.hosted);
    // A create body is the projection in the API's shape: a projection of empty values maps without throwing.
    const empty = Object.fromEntries(spec.fields.map((f) => [f.name, null]));
    expect(typeof adapter.body(empty, empty, true)).toBe('object');
    // A record read from a remote has every field of the projection, however little the remote sent.
    expect(Object.keys(adapter.fromApi({}, {})).sort()).toEqual([...names].sort());
  });
});
