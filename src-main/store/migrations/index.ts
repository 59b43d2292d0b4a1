import { initial } from './001-initial';
import { customersSearch } from './002-customers-search';
import { oauth } from './003-oauth';
import { idempotency } from './004-idempotency';
import { writePathAndSyncBookkeeping } from './005-write-path-and-sync-bookkeeping';
import { ledger } from './006-ledger';
import { importing } from './007-import';
import { invoices } from './008-invoices';
import { trackerDocumentsSearch } from './009-tracker-documents-search';
import { metrics } from './010-metrics';
import { workflows } from './011-workflows';
import { webSessions } from './012-web-sessions';
import { rules } from './013-rules';
import { sync } from './014-sync';
import { importStatements } from './015-import-statements';
import { specAreas } from './016-spec-areas';
import { lawfulDocuments } from './017-lawful-documents';
import { inboxIngestion } from './018-inbox-ingestion';
import { eInvoices } from './019-e-invoices';
import { invoiceSync } from './020-invoice-sync';
import { attachmentSync } from './021-attachment-sync';
import { einvoiceDelivery } from './022-einvoice-delivery';
import { backups } from './023-backups';
import { sellerTaxIds } from './024-seller-tax-ids';
import { syncKindsAndHeldValues } from './025-sync-kinds-and-held-values';
import { workflowRunStartersAndHookCalls } from './026-workflow-run-starters-and-hook-calls';
import { issuedInvoices } from './027-issued-invoices';
import { workflowVersionAuthors } from './028-workflow-version-authors';
import { syncConflictRuleCodes } from './029-sync-conflict-rule-codes';
import { searchPerTeam } from './030-search-per-team';

/**
 * Forward-only schema migrations. A migration is never edited once released: a change is a new migration with the
 * next version. Each runs in its own transaction together with the `user_version` bump, so a crash mid-way leaves
 * the database at the previous version, intact.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  initial,
  customersSearch,
  oauth,
  // [004 idempotency] — reserved number
  idempotency,
  writePathAndSyncBookkeeping,
  // [006 ledger] — reserved number
  ledger,
  // [007 import] — reserved number
  importing,
  // [008 invoices] — reserved number
  invoices,
  // [009 tracker, documents, inbox, search] — reserved number
  trackerDocumentsSearch,
  // [010 metrics] — reserved number
  metrics,
  // [011 workflows] — reserved number
  workflows,
  // [012 web sessions] — reserved number
  webSessions,
  // [013 rules, recurring series] — reserved number
  rules,
  // [014 sync engine state] — reserved number
  sync,
  // [015 import: QIF, statements of several accounts] — reserved number
  importStatements,
  // [016 tracker categories, partial payments, workflow settings, per-user notification state]
  specAreas,
  // [017 team address and VAT number, account IBAN, invoice supply date]
  lawfulDocuments,
  // [018 inbox ingestion: watched folder, IMAP, inbound e-mail callback]
  inboxIngestion,
  // [019 e-invoices: customer format and buyer reference, team default format, Peppol id and contact]
  eInvoices,
  // [020 invoice sync: numbers left to the remote, emails relayed through it]
  invoiceSync,
  // [021 attachment sync: transaction attachments in the change feed]
  attachmentSync,
  // [022 e-invoice delivery: a team's Peppol access point, the hand-off queue]
  einvoiceDelivery,
  // [023 backups: settings and the log of backups made]
  backups,
  // [024 seller tax ids: BT-32 tax number and BT-30 legal registration id of a team]
  sellerTaxIds,
  // [025 sync: a remote's kind chosen or found, values a remote cannot take]
  syncKindsAndHeldValues,
  // [026 workflow run starters (four-eyes approvals), webhook calls accepted (replays refused)]
  workflowRunStartersAndHookCalls,
  // [027 issued invoices frozen (parties, files), a customer's invoice language, dunning levels]
  issuedInvoices,
  // [028 workflow version authors (four eyes over who wrote what runs)]
  workflowVersionAuthors,
  // [029 sync conflict rule codes (the stated rule in the user's language)]
  syncConflictRuleCodes,
  // [030 search per team: a team token in every FTS index, the exact-amount index of invoices]
  searchPerTeam,
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
