import type { SyncAdapter } from './adapter';
import { crud } from './capability';
import { day, num, str } from './values';

export const trackerEntry: SyncAdapter<'tracker_entry'> = {
  entity: 'tracker_entry',
  fromApi: (r) => ({
    projectId: str(r.projectId) ?? '',
    date: day(r.date) ?? '',
    start: str(r.start) ?? '',
    stop: str(r.stop),
    durationSeconds: num(r.duration) ?? 0,
    description: str(r.description),
  }),
  body: (fields) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) out[k === 'durationSeconds' ? 'duration' : k] = v;
    return out;
  },
  natural: ['projectId', 'date', 'start', 'durationSeconds'],
  finops: crud({ path: '/tracker-entries', list: { paging: 'range' }, clientId: true, key: true, bulk: 100 }),
  // Listed by date range only, and not readable by id.
  hosted: crud({
    path: '/tracker-entries',
    list: { paging: 'range' },
    clientId: false,
    key: false,
    get: false,
    bulk: 100,
  }),
};
