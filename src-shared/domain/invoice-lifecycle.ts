import { INVOICE_STATUSES, type InvoiceStatus } from './invoice-status';

/**
 * The invoice state machine (docs/decisions/0070-invoice-lifecycle.md). Pure: the store asks it before every
 * status change, and an action it refuses is answered 409 naming the current state and the states reachable from it.
 *
 *   draft ──issue──► unpaid ──mark_overdue──► overdue
 *     │  ╲schedule     │  ▲                     │
 *     │    ► scheduled─┘  └──────reopen────┐    │
 *     │      (issue)         paid ◄──pay───┴────┘
 *     │                       │ refund
 *     │                       ▼
 *     └──cancel──► canceled  refunded
 *
 * - `issue` (send, or mark as sent) takes a draft or a scheduled invoice to unpaid — or straight to overdue when its
 *   due date has already passed in the invoice's time zone.
 * - `mark_overdue` is the scheduler's: only an unpaid invoice whose due date has passed.
 * - `pay` (a payment applied, or marked paid by hand) from unpaid or overdue; `reopen` undoes it (a payment
 *   unmatched): back to unpaid, or overdue when past due.
 * - `refund` only from paid. `cancel` from every state that is not yet settled: draft, scheduled, unpaid, overdue.
 * - `unschedule` takes a scheduled invoice back to draft.
 * - Actions that keep the status: `edit` (content: customer, number, lines, amounts, dates) while not issued;
 *   `edit_terms` (due date, note, payment details) until settled; `remind` while awaiting payment; `resend` once
 *   issued and open; `delete` only for draft and canceled.
 * Paid, refunded and canceled are settled: nothing but `delete` (canceled only) and `refund` (paid only) leaves them.
 */

export const INVOICE_ACTIONS = [
  'issue',
  'schedule',
  'unschedule',
  'mark_overdue',
  'pay',
  'reopen',
  'refund',
  'cancel',
  'edit',
  'edit_terms',
  'remind',
  'resend',
  'delete',
] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

/** What the machine needs to know besides the status: whether the due date has passed in the invoice's time zone. */
export interface LifecycleContext {
  pastDue: boolean;
}

type Target = InvoiceStatus | ((ctx: LifecycleContext) => InvoiceStatus | null);

const dueOrOverdue = (ctx: LifecycleContext): InvoiceStatus => (ctx.pastDue ? 'overdue' : 'unpaid');

/** For each action: the states it applies in and the state it leads to (same state for actions that keep it). */
const TRANSITIONS: Record<InvoiceAction, Partial<Record<InvoiceStatus, Target>>> = {
  issue: { draft: dueOrOverdue, scheduled: dueOrOverdue },
  schedule: { draft: 'scheduled' },
  unschedule: { scheduled: 'draft' },
  mark_overdue: { unpaid: (ctx) => (ctx.pastDue ? 'overdue' : null) },
  pay: { unpaid: 'paid', overdue: 'paid' },
  reopen: { paid: dueOrOverdue },
  refund: { paid: 'refunded' },
  cancel: { draft: 'canceled', scheduled: 'canceled', unpaid: 'canceled', overdue: 'canceled' },
  edit: { draft: 'draft', scheduled: 'scheduled' },
  edit_terms: { draft: 'draft', scheduled: 'scheduled', unpaid: 'unpaid', overdue: 'overdue' },
  remind: { unpaid: 'unpaid', overdue: 'overdue' },
  resend: { unpaid: 'unpaid', overdue: 'overdue' },
  delete: { draft: 'draft', canceled: 'canceled' },
};

/** Actions that change the status (the others keep it), in the order `nextStatuses` lists their targets. */
const MOVES: readonly InvoiceAction[] = ['issue', 'schedule', 'unschedule', 'mark_overdue', 'pay', 'reopen', 'refund', 'cancel'];

export type Transition = { ok: true; status: InvoiceStatus } | { ok: false; reason: string; allowed: InvoiceStatus[] };

/** Where `action` takes an invoice in `status`, or why it cannot (with the states it could move to instead). */
export function transition(status: InvoiceStatus, action: InvoiceAction, ctx: LifecycleContext): Transition {
  const target = TRANSITIONS[action][status];
  const next = typeof target === 'function' ? target(ctx) : target;
  if (next) return { ok: true, status: next };
  const allowed = nextStatuses(status, ctx);
  const why =
    action === 'mark_overdue' && status === 'unpaid'
      ? 'it is not past its due date yet'
      : `${describe(action)} is not possible for a${/^[aeiou]/.test(status) ? 'n' : ''} ${status} invoice`;
  return { ok: false, reason: why, allowed };
}

/** The statuses an invoice in `status` can move to now (its own status excluded). */
export function nextStatuses(status: InvoiceStatus, ctx: LifecycleContext): InvoiceStatus[] {
  const out: InvoiceStatus[] = [];
  for (const action of MOVES) {
    const target = TRANSITIONS[action][status];
    const next = typeof target === 'function' ? target(ctx) : target;
    if (next && next !== status && !out.includes(next)) out.push(next);
  }
  return INVOICE_STATUSES.filter((s) => out.includes(s));
}

/** Whether `action` applies to an invoice in `status` (without a move check of its target). */
export function allows(status: InvoiceStatus, action: InvoiceAction, ctx: LifecycleContext): boolean {
  return transition(status, action, ctx).ok;
}

/**
 * The action that moves `from` to `to`, for clients that set `status` directly (the hosted service's PUT): every
 * status change is one of the machine's moves, checked like any other. `undefined` when no move leads there.
 * Asking for `unpaid` past the due date means issue (or reopen), which lands in `overdue`.
 */
export function actionFor(from: InvoiceStatus, to: InvoiceStatus, ctx: LifecycleContext): InvoiceAction | undefined {
  if (from === to) return undefined;
  const exact = MOVES.find((a) => {
    const r = transition(from, a, ctx);
    return r.ok && r.status === to;
  });
  if (exact) return exact;
  // "unpaid" asked of an invoice past its due date: issuing or reopening it is meant, and lands it in overdue.
  if (to === 'unpaid' && ctx.pastDue) return (['issue', 'reopen'] as const).find((a) => transition(from, a, ctx).ok);
  return undefined;
}

/**
 * The statuses an invoice passes through from `from` to reach `to` by the machine's moves, fewest moves first (`to`
 * last; `[]` when it is there). A sync replica brings its copy to the state the other side reached so: an invoice
 * issued and paid there before this side saw it is issued here, then paid (docs/decisions/0143-invoice-sync.md).
 * "unpaid" is reached by "overdue" when the invoice is past due (both are the open state; each side marks overdue
 * by its own clock). Undefined when no sequence of moves leads there (a settled invoice, a draft asked to refund).
 */
export function lifecyclePath(from: InvoiceStatus, to: InvoiceStatus, ctx: LifecycleContext): InvoiceStatus[] | undefined {
  const reached = (s: InvoiceStatus) => s === to || (to === 'unpaid' && s === 'overdue');
  if (reached(from)) return [];
  const previous = new Map<InvoiceStatus, InvoiceStatus | null>([[from, null]]);
  const queue: InvoiceStatus[] = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const next of nextStatuses(at, ctx)) {
      if (previous.has(next)) continue;
      previous.set(next, at);
      if (reached(next)) {
        const path: InvoiceStatus[] = [];
        for (let s: InvoiceStatus | null = next; s !== null && s !== from; s = previous.get(s) ?? null) path.unshift(s);
        return path;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** "Invoice is paid; it cannot be edited. Allowed next states: refunded." — the 409 message. */
export function refusal(status: InvoiceStatus, action: InvoiceAction, ctx: LifecycleContext): string {
  const r = transition(status, action, ctx);
  if (r.ok) return '';
  const next = r.allowed.length ? r.allowed.join(', ') : 'none (the invoice is settled)';
  return `The invoice is ${status}: ${r.reason}. Allowed next states: ${next}`;
}

function describe(action: InvoiceAction): string {
  switch (action) {
    case 'issue':
      return 'sending (issuing) it';
    case 'schedule':
      return 'scheduling it';
    case 'unschedule':
      return 'unscheduling it';
    case 'mark_overdue':
      return 'marking it overdue';
    case 'pay':
      return 'marking it paid';
    case 'reopen':
      return 'reopening it';
    case 'refund':
      return 'refunding it';
    case 'cancel':
      return 'canceling it';
    case 'edit':
      return 'changing its content (customer, number, line items, amounts, dates)';
    case 'edit_terms':
      return 'changing its terms';
    case 'remind':
      return 'sending a reminder';
    case 'resend':
      return 'sending it again';
    case 'delete':
      return 'deleting it';
  }
}
