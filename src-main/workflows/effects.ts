import { CustomerPatch } from '../../src-shared/contract/customers';
import { InvoicePatch } from '../../src-shared/contract/invoices';
import { TransactionPatch } from '../../src-shared/contract/transactions';
import type { RecordResource } from '../../src-shared/contract/workflow-definition';
import { outboundFetch } from '../outbound/fetch';
import { updateCustomer } from '../store/customers/write';
import type { Db } from '../store/db';
import { queueInvoiceReminder } from '../store/invoices/send';
import { updateInvoice } from '../store/invoices/write';
import { type TransactionChange, updateTransaction } from '../store/transactions/update';
import { teamHttpHosts } from '../store/workflows/settings';

/**
 * The effects a run has on the rest of the app, behind small interfaces, so the engine does not depend on when
 * each resource's store lands and tests can watch what a run did. Each effect gets the step's idempotency key, the
 * same on a retry. docs/decisions/0103-workflow-effects.md lists what is wired.
 */

/** Queues a payment reminder for an invoice; a second call with the same key queues nothing more. */
export type InvoiceReminderQueue = (db: Db, teamId: string, invoiceId: string, options: { idempotencyKey: string }) => unknown;

/** Sets one allowed field of a record of the team (inside the step's transaction); returns what to keep as output. */
export type RecordUpdater = (db: Db, teamId: string, id: string, field: string, value: unknown) => unknown;

export interface EffectPorts {
  /** When absent (a test without it), the reminder node fails with a clear message. */
  queueInvoiceReminder?: InvoiceReminderQueue;
  recordUpdaters: Partial<Record<RecordResource, RecordUpdater>>;
  /**
   * Hosts (`host` or `host:port`) HTTP nodes of the team's runs may call; empty: HTTP nodes are off. The team's
   * workflow settings in its data (store/workflows/settings.ts), so every process advancing a run reads the same.
   */
  httpAllowedHosts: (db: Db, teamId: string) => readonly string[];
  /** HTTP through the outbound policy (outbound/fetch.ts): checked addresses, bounded bodies. */
  fetch: typeof outboundFetch;
}

export class EffectRefused extends Error {
  override name = 'EffectRefused';
}

const updateCustomerField: RecordUpdater = (db, teamId, id, field, value) => {
  const patch = CustomerPatch.safeParse({ [field]: value });
  if (!patch.success) {
    throw new EffectRefused(
      `the value for customer.${field} is not valid: ${patch.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  updateCustomer(db, teamId, id, patch.data);
  return undefined;
};

const updateInvoiceField: RecordUpdater = (db, teamId, id, field, value) => {
  const patch = InvoicePatch.safeParse({ [field]: value });
  if (!patch.success) {
    throw new EffectRefused(
      `the value for invoice.${field} is not valid: ${patch.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  // The invoice's lifecycle rules apply (a settled invoice's note is refused with the state named).
  updateInvoice(db, teamId, id, patch.data);
  return undefined;
};

const updateTransactionField: RecordUpdater = (db, teamId, id, field, value) => {
  const patch = TransactionPatch.safeParse({ [field]: value });
  if (!patch.success) {
    throw new EffectRefused(
      `the value for transaction.${field} is not valid: ${patch.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  // Like rules and imports, a workflow leaves a field a person set alone (the step's output names it).
  const result = updateTransaction(db, teamId, id, patch.data as TransactionChange, { source: 'workflow', respectLocks: true });
  return result.skipped.length ? { skipped: result.skipped } : undefined;
};

/** The effects as wired today (see the decision record for what is not yet). */
export function defaultEffectPorts(overrides: Partial<EffectPorts> = {}): EffectPorts {
  return {
    // The invoices area's delivery queue: one reminder email per idempotency key, checked against the invoice's state.
    queueInvoiceReminder: (db, teamId, invoiceId, { idempotencyKey }) =>
      queueInvoiceReminder(db, teamId, invoiceId, { idempotencyKey }),
    recordUpdaters: { customer: updateCustomerField, invoice: updateInvoiceField, transaction: updateTransactionField },
    httpAllowedHosts: teamHttpHosts,
    fetch: outboundFetch,
    ...overrides,
  };
}

/**
 * Whether an HTTP node may call `url`: http or https, and its host on the allow-list, compared after the platform's
 * URL parser normalised it (never by substring: `allowed.example.evil` is not `allowed.example`). An entry's port
 * must be the URL's port; an entry without one allows only the scheme's default port (80, 443). Credentials in the
 * URL are refused. Where the host's addresses may be is the operator's rule, checked when connecting
 * (outbound/policy.ts): a team's entry never reaches loopback or a private network the operator did not allow.
 */
export function httpTargetProblem(url: string, allowed: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `only http and https URLs may be called, not ${parsed.protocol}`;
  if (parsed.username || parsed.password) return 'a URL with credentials in it is refused';
  if (allowed.length === 0) {
    return "HTTP calls are off: no host is on the team's allow-list (finops workflow http-hosts, or PUT /app/workflow-settings)";
  }
  const host = parsed.hostname.toLowerCase();
  const defaultPort = parsed.protocol === 'https:' ? 443 : 80;
  const port = parsed.port ? Number(parsed.port) : defaultPort;
  const ok = allowed.some((entry) => {
    const e = entry.trim().toLowerCase();
    // `host`, `host:port`, `[v6]` or `[v6]:port`, as normalizeHttpHost writes them.
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(e);
    if (!m) return false;
    const entryHost = m[1]!;
    const entryPort = m[2] === undefined ? defaultPort : Number(m[2]);
    return entryHost === host && entryPort === port;
  });
  return ok
    ? undefined
    : `${parsed.host} is not on the allow-list of HTTP hosts (an entry without a port allows only port ${defaultPort})`;
}
