import type { SyncAdapter } from './adapter';
import { crud, PAGES } from './capability';
import { boolOr, major, minor, num, str, tagIds, tagRefs } from './values';

export const trackerProject: SyncAdapter<'tracker_project'> = {
  entity: 'tracker_project',
  fromApi: (r) => {
    const currency = str(r.currency);
    return {
      name: str(r.name) ?? '',
      description: str(r.description),
      estimate: num(r.estimate),
      billable: boolOr(r.billable, false),
      rateMinor: minor(r.rate, currency),
      currency,
      status: str(r.status) ?? 'in_progress',
      customerId: str(r.customerId),
      tags: tagIds(r.tags),
    };
  },
  body: (fields, full) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      if (k === 'rateMinor') out.rate = major(v, full.currency);
      else if (k === 'tags') out.tags = tagRefs(v);
      else out[k] = v;
    }
    return out;
  },
  natural: ['name'],
  finops: crud({ path: '/tracker-projects', list: PAGES, clientId: true, key: true }),
  hosted: crud({ path: '/tracker-projects', list: PAGES, clientId: false, key: false }),
};
