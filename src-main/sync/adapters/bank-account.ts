import type { SyncAdapter } from './adapter';
import { ALL_PAGES, crud } from './capability';
import { asIs, boolOr, str } from './values';

export const bankAccount: SyncAdapter<'bank_account'> = {
  entity: 'bank_account',
  fromApi: (r) => ({
    name: str(r.name) ?? '',
    type: str(r.type) ?? 'depository',
    currency: str(r.currency) ?? '',
    enabled: boolOr(r.enabled, true),
    manual: boolOr(r.manual, true),
  }),
  body: asIs,
  natural: ['name', 'currency'],
  finops: crud({
    path: '/bank-accounts',
    list: ALL_PAGES,
    clientId: true,
    key: true,
    createFields: ['name', 'currency', 'type', 'enabled'],
  }),
  hosted: crud({
    path: '/bank-accounts',
    list: ALL_PAGES,
    clientId: false,
    key: false,
    createFields: ['name', 'currency', 'type'],
  }),
};
