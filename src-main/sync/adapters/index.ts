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
export const ADAPTERS: { readonly [E in SyncEntity]: SyncAdapter<E> } = {
  tag: tag,
  transaction_category: transactionCategory,
  bank_account: bankAccount,
  customer: customer,
  invoice: invoice,
  tracker_project: trackerProject,
  tracker_entry: trackerEntry,
  transaction: transaction,
  transaction_attachment: transactionAttachment,
  document: storedDocument,
  notification: notification,
};

export function adapterOf(entity: SyncEntity): SyncAdapter {
  return ADAPTERS[entity];
}
