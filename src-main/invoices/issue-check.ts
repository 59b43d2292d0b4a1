import type { RuleFailure } from '../../src-shared/contract/errors';
import { REQUIREMENT_RULES } from '../../src-shared/domain/invoice-requirements';
import { EU_COUNTRIES } from '../../src-shared/domain/invoice-vat';
import type { Db } from '../store/db';
import { type InvoiceRow, requireInvoiceRow } from '../store/invoices/read';
import { invoiceRequirementFailures } from '../store/invoices/requirements';
import { getTeamDetails } from '../store/teams/teams';
import { checkInvoiceEInvoice, EInvoiceRejected, EInvoiceUnavailable } from './einvoice-issue';

/**
 * Everything an invoice is checked against before it is issued (docs/decisions/0121): what the law asks it to state
 * (store/invoices/requirements.ts) and, when the customer takes an e-invoice, the rules of its format (0160). One
 * list, the law's first. The server's issuing routes refuse an invoice that fails any (422 with `rules`); a sync
 * replica's push is not checked (the other side issued it).
 */
export interface IssueCheck {
  ok: boolean;
  failures: RuleFailure[];
}

export function issueCheck(db: Db, teamId: string, row: InvoiceRow): IssueCheck {
  const failures: RuleFailure[] = [...invoiceRequirementFailures(db, teamId, row)];
  try {
    failures.push(...checkInvoiceEInvoice(db, teamId, row.id).failures);
  } catch (err) {
    // No format chosen (a plain PDF), or no number yet (the remote numbers it): nothing more to check.
    if (!(err instanceof EInvoiceUnavailable)) throw err;
  }
  return { ok: failures.length === 0, failures };
}

/**
 * Refuses to issue (IssueRefused, answered 422 with the rules) an invoice that fails a check. The law's checks
 * refuse for a team established in the EU, where Art. 226 certainly applies; for any other team (or one that has not
 * said where it is) they are advice the screens show and block on, and the API issues as the hosted service does.
 */
export function assertIssuable(db: Db, teamId: string, row: InvoiceRow): void {
  const { failures } = issueCheck(db, teamId, row);
  const country = getTeamDetails(db, teamId).countryCode?.toUpperCase() ?? '';
  const binding = EU_COUNTRIES.has(country)
    ? failures
    : failures.filter((f) => !(REQUIREMENT_RULES as readonly string[]).includes(f.rule));
  if (binding.length) throw new IssueRefused(binding);
}

export function issueCheckOf(db: Db, teamId: string, invoiceId: string): IssueCheck {
  return issueCheck(db, teamId, requireInvoiceRow(db, teamId, invoiceId));
}

/** An invoice that may not be issued as it is: every rule it fails, the law's first. */
export class IssueRefused extends EInvoiceRejected {
  override name = 'IssueRefused';
  override message =
    `The invoice cannot be issued: it fails ${this.failures.length} check${this.failures.length === 1 ? '' : 's'} (what it must state, its e-invoice)`;
}
