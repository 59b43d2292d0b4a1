/**
 * The invoice state machine, exhaustively: every status × every action × (before / after the due date) against a
 * table written out by hand from docs/decisions/0070-invoice-lifecycle.md. A cell is the resulting status, or '-'
 * when the action is refused.
 */
import { describe, expect, it } from 'vitest';
import {
  actionFor,
  INVOICE_ACTIONS,
  type InvoiceAction,
  lifecyclePath,
  nextStatuses,
  refusal,
  transition,
} from '../../../src-shared/domain/invoice-lifecycle';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../src-shared/domain/invoice-status';

type Row = Record<InvoiceAction, string>;
const S = (
  issue: string,
  schedule: string,
  unschedule: string,
  mark_overdue: string,
  pay: string,
  reopen: string,
  refund: string,
  cancel: string,
  edit: string,
  edit_terms: string,
  remind: string,
  resend: string,
  del: string,
): Row => ({
  issue,
  schedule,
  unschedule,
  mark_overdue,
  pay,
  reopen,
  refund,
  cancel,
  edit,
  edit_terms,
  remind,
  resend,
  delete: del,
});

//                 issue      schedule     unsched  overdue    pay     reopen     refund      cancel      edit         terms        remind     resend     delete
const NOT_DUE: Record<InvoiceStatus, Row> = {
  draft: S('unpaid', 'scheduled', '-', '-', '-', '-', '-', 'canceled', 'draft', 'draft', '-', '-', 'draft'),
  scheduled: S('unpaid', '-', 'draft', '-', '-', '-', '-', 'canceled', 'scheduled', 'scheduled', '-', '-', '-'),
  unpaid: S('-', '-', '-', '-', 'paid', '-', '-', 'canceled', '-', 'unpaid', 'unpaid', 'unpaid', '-'),
  overdue: S('-', '-', '-', '-', 'paid', '-', '-', 'canceled', '-', 'overdue', 'overdue', 'overdue', '-'),
  paid: S('-', '-', '-', '-', '-', 'unpaid', 'refunded', '-', '-', '-', '-', '-', '-'),
  canceled: S('-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', 'canceled'),
  refunded: S('-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-'),
};
const PAST_DUE: Record<InvoiceStatus, Row> = {
  draft: S('overdue', 'scheduled', '-', '-', '-', '-', '-', 'canceled', 'draft', 'draft', '-', '-', 'draft'),
  scheduled: S('overdue', '-', 'draft', '-', '-', '-', '-', 'canceled', 'scheduled', 'scheduled', '-', '-', '-'),
  unpaid: S('-', '-', '-', 'overdue', 'paid', '-', '-', 'canceled', '-', 'unpaid', 'unpaid', 'unpaid', '-'),
  overdue: S('-', '-', '-', '-', 'paid', '-', '-', 'canceled', '-', 'overdue', 'overdue', 'overdue', '-'),
  paid: S('-', '-', '-', '-', '-', 'overdue', 'refunded', '-', '-', '-', '-', '-', '-'),
  canceled: S('-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', 'canceled'),
  refunded: S('-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-'),
};

describe('invoice lifecycle', () => {
  for (const [label, table, pastDue] of [
    ['before the due date', NOT_DUE, false],
    ['after the due date', PAST_DUE, true],
  ] as const) {
    describe(label, () => {
      for (const status of INVOICE_STATUSES) {
        for (const action of INVOICE_ACTIONS) {
          const expected = table[status][action];
          it(`${status} × ${action} → ${expected}`, () => {
            const r = transition(status, action, { pastDue });
            if (expected === '-') {
              expect(r.ok).toBe(false);
              const message = refusal(status, action, { pastDue });
              expect(message).toContain(`The invoice is ${status}`);
              // The 409 names the states the invoice can move to now.
              const allowed = nextStatuses(status, { pastDue });
              expect(message).toContain(allowed.length ? allowed.join(', ') : 'none');
              if (!r.ok) expect(r.allowed).toEqual(allowed);
            } else {
              expect(r).toEqual({ ok: true, status: expected });
            }
          });
        }
      }
    });
  }

  it('covers every status and every action in the tables', () => {
    expect(Object.keys(NOT_DUE).sort()).toEqual([...INVOICE_STATUSES].sort());
    expect(Object.keys(NOT_DUE.draft).sort()).toEqual([...INVOICE_ACTIONS].sort());
    expect(INVOICE_STATUSES.length * INVOICE_ACTIONS.length * 2).toBe(182);
  });

  it('lists the next states of each status', () => {
    const ctx = { pastDue: false };
    expect(nextStatuses('draft', ctx)).toEqual(['scheduled', 'unpaid', 'canceled']);
    expect(nextStatuses('scheduled', ctx)).toEqual(['draft', 'unpaid', 'canceled']);
    expect(nextStatuses('unpaid', ctx)).toEqual(['paid', 'canceled']);
    expect(nextStatuses('unpaid', { pastDue: true })).toEqual(['overdue', 'paid', 'canceled']);
    expect(nextStatuses('overdue', ctx)).toEqual(['paid', 'canceled']);
    expect(nextStatuses('paid', ctx)).toEqual(['unpaid', 'refunded']);
    expect(nextStatuses('paid', { pastDue: true })).toEqual(['overdue', 'refunded']);
    expect(nextStatuses('canceled', ctx)).toEqual([]);
    expect(nextStatuses('refunded', ctx)).toEqual([]);
  });

  it('finds the move for a status set directly, and none where the machine has no move', () => {
    const ctx = { pastDue: false };
    for (const from of INVOICE_STATUSES) {
      for (const to of INVOICE_STATUSES) {
        const action = actionFor(from, to, ctx);
        if (from === to || !nextStatuses(from, ctx).includes(to)) expect(action, `${from} → ${to}`).toBeUndefined();
        else expect(transition(from, action!, ctx)).toEqual({ ok: true, status: to });
      }
    }
    expect(actionFor('refunded', 'paid', ctx)).toBeUndefined();
    expect(actionFor('unpaid', 'paid', ctx)).toBe('pay');
    expect(actionFor('unpaid', 'overdue', ctx)).toBeUndefined();
    expect(actionFor('unpaid', 'overdue', { pastDue: true })).toBe('mark_overdue');
    // "unpaid" asked past the due date: issue (or reopen), landing in overdue.
    expect(actionFor('draft', 'unpaid', { pastDue: true })).toBe('issue');
    expect(actionFor('scheduled', 'unpaid', { pastDue: true })).toBe('issue');
    expect(actionFor('paid', 'unpaid', { pastDue: true })).toBe('reopen');
    expect(actionFor('overdue', 'unpaid', { pastDue: true })).toBeUndefined();
    expect(actionFor('canceled', 'unpaid', { pastDue: true })).toBeUndefined();
  });

  it('says why an unpaid invoice cannot be marked overdue before its due date', () => {
    expect(refusal('unpaid', 'mark_overdue', { pastDue: false })).toBe(
      'The invoice is unpaid: it is not past its due date yet. Allowed next states: paid, canceled',
    );
    expect(refusal('refunded', 'cancel', { pastDue: false })).toBe(
      'The invoice is refunded: canceling it is not possible for a refunded invoice. Allowed next states: none (the invoice is settled)',
    );
  });

  it('walks to a state the other side of a sync reached, one checked move at a time', () => {
    const before = { pastDue: false };
    const after = { pastDue: true };
    expect(lifecyclePath('draft', 'draft', before)).toEqual([]);
    expect(lifecyclePath('draft', 'paid', before)).toEqual(['unpaid', 'paid']);
    expect(lifecyclePath('draft', 'paid', after)).toEqual(['overdue', 'paid']);
    expect(lifecyclePath('scheduled', 'refunded', before)).toEqual(['unpaid', 'paid', 'refunded']);
    expect(lifecyclePath('unpaid', 'canceled', before)).toEqual(['canceled']);
    // "unpaid" is the open state: an overdue invoice is there already, a draft past due lands in overdue.
    expect(lifecyclePath('overdue', 'unpaid', after)).toEqual([]);
    expect(lifecyclePath('draft', 'unpaid', after)).toEqual(['overdue']);
    // Settled states are left only by their own moves.
    expect(lifecyclePath('canceled', 'paid', before)).toBeUndefined();
    expect(lifecyclePath('refunded', 'unpaid', before)).toBeUndefined();
    expect(lifecyclePath('paid', 'draft', before)).toBeUndefined();
  });
});
