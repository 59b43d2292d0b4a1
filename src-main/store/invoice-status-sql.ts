import { ISSUED_STATUSES, NOT_ISSUED_STATUSES, OPEN_STATUSES } from '../../src-shared/domain/invoice-status';

/**
 * The SQL forms of the invoice status rules in src-shared/domain/invoice-status.ts, generated from the same lists
 * (a table test in test/main/store/customers and test/main/store/tracker holds each equal to its TypeScript form).
 */
const list = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(', ');

/** `<column>` names an issued invoice's status. */
export const issuedSql = (column: string) => `${column} NOT IN (${list(NOT_ISSUED_STATUSES)})`;

/** `<column>` names an open (awaiting payment) invoice's status. */
export const openSql = (column: string) => `${column} IN (${list(OPEN_STATUSES)})`;

/**
 * What has been paid so far on the invoice aliased `<invoice>`: its applied payments, refunds apart (decision 0147).
 * An open invoice still owes `amount_minor - ${receivedSql('i')}`.
 */
export const receivedSql = (invoice: string) =>
  `coalesce((SELECT sum(p.amount_minor) FROM invoice_payments p WHERE p.team_id = ${invoice}.team_id
     AND p.invoice_id = ${invoice}.id AND p.state = 'applied' AND p.kind = 'payment'), 0)`;

/** For documentation and tests: the statuses each condition admits. */
export const RULE_STATUSES = { issued: ISSUED_STATUSES, open: OPEN_STATUSES } as const;
