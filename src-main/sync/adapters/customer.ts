import { SYNC_SPECS } from '../../../src-shared/domain/sync/fields';
import type { Json } from '../../../src-shared/domain/sync/merge';
import type { SyncAdapter } from './adapter';
import { crud, PAGES } from './capability';
import { tagIds, tagRefs } from './values';

export const customer: SyncAdapter<'customer'> = {
  entity: 'customer',
  fromApi: (r) => {
    const p: Record<string, Json> = {};
    for (const f of SYNC_SPECS.customer.fields) {
      if (f.name === 'tags') continue;
      const value = r[f.name];
      p[f.name] = value === undefined ? null : (value as Json);
    }
    p.tags = tagIds(r.tags);
    return p;
  },
  body: (fields) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) out[k] = k === 'tags' ? tagRefs(v) : v;
    return out;
  },
  // None: a customer's email is not unique (decision 0021), and two customers of one name are two customers.
  finops: crud({ path: '/customers', list: PAGES, clientId: true, key: true }),
  // An upsert by id there: the same create sent twice with the same id is one customer. Its PATCH wants the name,
  // email and tags every time (it drops omitted tags).
  hosted: crud({ path: '/customers', list: PAGES, clientId: true, key: true, alwaysSend: ['name', 'email', 'tags'] }),
};
