import { ISSUED_STATUSES, NOT_ISSUED_STATUSES, OPEN_STATUSES } from '../../../src-shared/domain/invoice-status';

/**
 * The SQL forms of the invoice status rules in src-shared/domain/invoice-status.ts, generated from the same lists
 * (a table test in test/main/store/customers and test/main/store/tracker holds each equal to its TypeScript form).
 */
const list = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(', ');

/** `<column>` names an issued invoice's status. */
export const issuedSql = (column: string) => `${column} NOT IN (${list(NOT_ISSUED_STATUSES)})`;

/** `<column>` names an open (awaiting payment) invoice's status. */
export const openSql = (column: string) => `${column} IN (${list(OPEN_STATUSES)})`;

/** For documentation and tests: the statuses each condition admits. */
export const RULE_STATUSES = { issued: ISSUED_STATUSES, open: OPEN_STATUSES } as const;
