import type { SyncAdapter } from './adapter';
import { ALL_PAGES, crud } from './capability';
import { asIs, str } from './values';

export const tag: SyncAdapter<'tag'> = {
  entity: 'tag',
  fromApi: (r) => ({ name: str(r.name) ?? '' }),
  body: asIs,
  natural: ['name'],
  finops: crud({ path: '/tags', list: ALL_PAGES, clientId: true, key: true, naturalKey: 'name' }),
  hosted: crud({ path: '/tags', list: ALL_PAGES, clientId: false, key: false, naturalKey: 'name' }),
};
