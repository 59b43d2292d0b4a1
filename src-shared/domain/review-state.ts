/**
 * The review flow of a transaction (docs/decisions/0051-review-states.md), derived from the hosted service's states
 * ("fulfilled" = an attachment or status completed; excluded and archived are hidden from the default list):
 *
 * - excluded: status excluded or archived — out of review (and, for excluded, out of reports).
 * - exported: status exported — handed to the accountant's books; done.
 * - ready: status completed, or marked reviewed and either fulfilled or not needing a receipt.
 * - needs_receipt: marked reviewed, but an expense that needs a receipt has none.
 * - to_review: not looked at yet (the default for every new bank line).
 *
 * An expense needs a receipt unless it is internal or its category's group needs none (payroll, taxes, bank charges
 * and transfers, loans, owner's equity, the system group): those are proven by other documents.
 */
export const REVIEW_STATES = ['to_review', 'needs_receipt', 'ready', 'exported', 'excluded'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** Parent groups (and their children) whose expenses need no receipt. */
export const RECEIPT_EXEMPT_GROUPS: readonly string[] = [
  'human-resources',
  'taxes',
  'banking-finance',
  'liabilities-debt',
  'owner-equity',
  'system',
];

export interface ReviewFacts {
  status: string;
  amountMinor: number;
  internal: boolean;
  reviewed: boolean;
  fulfilled: boolean;
  /** The category's parent group slug (or its own slug for a group); null when uncategorized. */
  categoryGroup: string | null;
}

export function needsReceipt(f: Pick<ReviewFacts, 'amountMinor' | 'internal' | 'categoryGroup'>): boolean {
  return f.amountMinor < 0 && !f.internal && !(f.categoryGroup !== null && RECEIPT_EXEMPT_GROUPS.includes(f.categoryGroup));
}

export function reviewStateOf(f: ReviewFacts): ReviewState {
  if (f.status === 'excluded' || f.status === 'archived') return 'excluded';
  if (f.status === 'exported') return 'exported';
  if (f.status === 'completed') return 'ready';
  if (!f.reviewed) return 'to_review';
  if (!f.fulfilled && needsReceipt(f)) return 'needs_receipt';
  return 'ready';
}

/** Fulfilled, as the hosted service defines it: a receipt is attached, or the transaction is completed. */
export function isFulfilled(status: string, attachmentCount: number): boolean {
  return attachmentCount > 0 || status === 'completed';
}
