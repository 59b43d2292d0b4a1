import type { SyncEntity } from '../../../src-shared/domain/sync/fields';
import type { SyncAdapter } from './adapter';
import { bankAccount } from './bank-account';
import { customer } from './customer';
import { storedDocument } from './document';
import { invoice } from './invoice';
import { notification } from './notification';
import { tag } from './tag';
import { trackerEntry } from './tracker-entry';
import { trackerProject } from './tracker-project';
import { transaction } from './transaction';
import { transactionAttachment } from './transaction-attachment';
import { transactionCategory } from './transaction-category';

/** Every synced resource's adapter (./adapter.ts), one line each: the type refuses an entity without one. */
export const ADAPTERS: { readonly [E in SyncEntity]: SyncAdapter & { entity: E } } = {
  tag: tag as SyncAdapter & { entity: 'tag' },
  transaction_category: transactionCategory as SyncAdapter & { entity: 'transaction_category' },
  bank_account: bankAccount as SyncAdapter & { entity: 'bank_account' },
  customer: customer as SyncAdapter & { entity: 'customer' },
  invoice: invoice as SyncAdapter & { entity: 'invoice' },
  tracker_project: trackerProject as SyncAdapter & { entity: 'tracker_project' },
  tracker_entry: trackerEntry as SyncAdapter & { entity: 'tracker_entry' },
  transaction: transaction as SyncAdapter & { entity: 'transaction' },
  transaction_attachment: transactionAttachment as SyncAdapter & { entity: 'transaction_attachment' },
  document: storedDocument as SyncAdapter & { entity: 'document' },
  notification: notification as SyncAdapter & { entity: 'notification' },
};

export function adapterOf(entity: SyncEntity): SyncAdapter {
  return ADAPTERS[entity];
}
