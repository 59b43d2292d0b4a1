import { z } from 'zod';

/**
 * The rules a sync round states when it records a conflict (docs/decisions/0193-conflict-rule-codes.md), as a
 * closed list of codes the screens translate. The engine still writes its English sentence beside the code (the
 * CLI shows it, and rows from before codes have only it); the code and its params are what a screen in another
 * language reads.
 *
 * Params are the sentence's variable parts: `failures` (rounds in a row the remote failed), `status` (the remote's
 * HTTP status), `invoiceNumber`, and `message`: the remote's own words, or the local store's reason, kept as they
 * were said (English), never translated.
 */
export const CONFLICT_RULE_CODES = [
  // A group of fields changed on both sides: the group's stated default (src-shared/domain/sync/fields.ts).
  'remote_holds_shared_facts',
  'local_review_work',
  'remote_numbers_invoices',
  'invoice_amounts_one_unit',
  'remote_invoice_lifecycle',
  'statement_facts_from_bank',
  'amount_and_splits_one_unit',
  'read_state_is_personal',
  // A delete against an edit: the edit survives.
  'delete_against_edit_restored',
  'delete_against_edit_restored_with_owners',
  'delete_against_edit_kept',
  'delete_against_edit_created_again',
  // The local store refused what the remote holds.
  'local_refused_remote_create',
  'local_refused_remote_change',
  'local_cannot_restore',
  'local_keeps_remote_delete',
  'local_refused_remote_answer',
  // The remote refused or failed on what this side sent.
  'refused_by_remote_create',
  'refused_by_remote_change_kept',
  'refused_by_remote_change_followed',
  'refused_by_remote_delete_restored',
  'refused_by_remote_delete_kept',
  'given_up_after_failures',
  'remote_merged_records',
  'refers_to_local_only_record',
  // Invoice numbers: a number the remote already gave another invoice.
  'issued_number_taken',
  'draft_number_yielded',
] as const;
export type ConflictRuleCode = (typeof CONFLICT_RULE_CODES)[number];

export const ConflictRuleParams = z
  .object({
    failures: z.number().int().optional().describe('rounds in a row the remote failed on the change'),
    status: z.number().int().optional().describe("the remote's HTTP status"),
    invoiceNumber: z.string().optional(),
    message: z.string().optional().describe("the remote's or the local store's own words, as said (English)"),
  })
  .strict();
export type ConflictRuleParams = z.infer<typeof ConflictRuleParams>;

type Message = { message: string };
type Refusal = { status: number; message: string };

/** What each code's sentence needs: the type system keeps a call site from leaving a part out. */
interface ParamsOf {
  given_up_after_failures: { failures: number; message: string };
  local_refused_remote_create: Message;
  local_refused_remote_change: Message;
  local_cannot_restore: Message;
  local_keeps_remote_delete: Message;
  local_refused_remote_answer: Message;
  refused_by_remote_create: Refusal;
  refused_by_remote_change_kept: Refusal;
  refused_by_remote_change_followed: Refusal;
  refused_by_remote_delete_restored: Refusal;
  refused_by_remote_delete_kept: Refusal;
  issued_number_taken: { invoiceNumber: string };
  draft_number_yielded: { invoiceNumber: string };
}

/** A code with the params its sentence needs, as a conflict is recorded with it. */
export interface CodedRule {
  ruleCode: ConflictRuleCode;
  ruleParams: ConflictRuleParams | null;
}

export function codedRule<C extends Exclude<ConflictRuleCode, keyof ParamsOf>>(code: C): CodedRule;
export function codedRule<C extends keyof ParamsOf>(code: C, params: ParamsOf[C]): CodedRule;
export function codedRule(code: ConflictRuleCode, params?: ConflictRuleParams): CodedRule {
  return { ruleCode: code, ruleParams: params ?? null };
}

/**
 * The code of a field group's stated default, by its sentence in src-shared/domain/sync/fields.ts (those sentences
 * are the engine's; a test holds every one of them to a code here). A sentence not listed has no code: its
 * conflicts show the English sentence, as rows from before codes do.
 */
const GROUP_RULES: Readonly<Record<string, ConflictRuleCode>> = {
  'remote wins: the shared copy holds the facts everyone works from': 'remote_holds_shared_facts',
  "local wins: review work (category, tags, notes, decisions) is this person's and was done here": 'local_review_work',
  "remote wins: the remote numbers the team's invoices": 'remote_numbers_invoices',
  'remote wins: the line items, their currency and the discount are one unit': 'invoice_amounts_one_unit',
  'remote wins: the lifecycle as the shared copy holds it (sent, paid or canceled there); a state this side cannot reach is a conflict of its own':
    'remote_invoice_lifecycle',
  'remote wins: a statement line’s facts come from the bank side': 'statement_facts_from_bank',
  'remote wins: the amount and its split parts are one unit': 'amount_and_splits_one_unit',
  "local wins: whether a person read or archived it is that person's decision": 'read_state_is_personal',
};

export function groupRule(rule: string): CodedRule | { ruleCode: null; ruleParams: null } {
  const code = GROUP_RULES[rule];
  return code ? { ruleCode: code, ruleParams: null } : { ruleCode: null, ruleParams: null };
}

export function isConflictRuleCode(code: unknown): code is ConflictRuleCode {
  return typeof code === 'string' && (CONFLICT_RULE_CODES as readonly string[]).includes(code);
}
