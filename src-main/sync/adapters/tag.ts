import { SYNC_SPECS } from '../../../src-shared/domain/sync/fields';
import type { SyncAdapter } from './adapter';
import { ALL_PAGES, crud } from './capability';
import { asIs, str } from './values';

export const tag: SyncAdapter = {
  entity: 'tag',
  spec: SYNC_SPECS.tag,
  fromApi: (r) => ({ name: str(r.name) ?? '' }),
  body: asIs,
  natural: ['name'],
  finops: crud({ path: '/tags', list: ALL_PAGES, clientId: true, key: true, naturalKey: 'name' }),
  hosted: crud({ path: '/tags', list: ALL_PAGES, clientId: false, key: false, naturalKey: 'name' }),
};
