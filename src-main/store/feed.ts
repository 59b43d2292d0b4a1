import { getBankAccount } from './bank-accounts/bank-accounts';
import { getCategory } from './categories/categories';
import { getCustomer } from './customers/read';
import type { Db } from './db';
import { getDocument } from './documents/documents';
import type { EntityName } from './entities';
import { getImportBatch } from './import/batches';
import { getImportMapping } from './import/mappings';
import { getReviewItem } from './import/review';
import { getTransferPair } from './import/transfers';
import { getInboxItem } from './inbox/items';
import { getInvoicePayment } from './invoices/payments';
import { getInvoice } from './invoices/read';
import { getForecast } from './metrics/forecasts';
import { getStressTest } from './metrics/stress-tests';
import { getNotification } from './notifications/notifications';
import { getReconciliation } from './reconciliation/reconciliation';
import { getRecurringSeries } from './rules/recurring';
import { getRule } from './rules/rules';
import { getTag } from './tags/tags';
import { getTrackerCategory } from './tracker/categories';
import { getTrackerEntry } from './tracker/entries';
import { getTrackerProject } from './tracker/projects';
import { getAttachment } from './transactions/attachments';
import { getTransaction } from './transactions/read';
import { getRun } from './workflows/runs/reads';
import { getWorkflowSummary } from './workflows/workflows';

/**
 * How to read one record of each entity as the API shows it, for the change feed (the sync engine pushes what this
 * returns; the change stream may include it). Typed by the registry: adding an entity to entities.ts without a
 * reader here does not compile. `null` marks an entity whose API read is not built yet (README "Not built yet").
 * A reader returns undefined — or throws the store's NotFound — when the record does not exist.
 */
export type FeedReader = (db: Db, teamId: string, id: string) => unknown;

export const FEED_READERS: { readonly [E in EntityName]: FeedReader | null } = {
  customer: getCustomer,
  tag: getTag,
  transaction_category: getCategory,
  bank_account: getBankAccount,
  transaction: getTransaction,
  invoice: getInvoice,
  tracker_project: getTrackerProject,
  tracker_entry: getTrackerEntry,
  tracker_category: getTrackerCategory,
  notification: getNotification,
  document: getDocument,
  transaction_attachment: getAttachment,
  inbox_item: getInboxItem,
  invoice_payment: getInvoicePayment,
  workflow: getWorkflowSummary,
  workflow_run: getRun,
  forecast: getForecast,
  stress_test: getStressTest,
  import_batch: getImportBatch,
  import_review_item: getReviewItem,
  import_mapping: getImportMapping,
  transfer_pair: getTransferPair,
  reconciliation: getReconciliation,
  rule: getRule,
  recurring_series: getRecurringSeries,
  // [feed readers of later resources register here]
};
