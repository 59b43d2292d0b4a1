import { z } from 'zod';
import { RULE_STAGES } from '../domain/rules';
import { FREQUENCIES } from '../domain/transactions';
import { idParams } from './list';
import { defineRoute } from './route';

/**
 * Categorization rules, suggestions and recurring series: an extension of the transactions area under /v1 (scope
 * transactions.*; the hosted service has no rules). Semantics: src-shared/domain/rules.ts; decisions 0130–0132.
 */

const Day = z.iso.date();
const text = z.string().min(1).max(500);

const TextLeaf = z.strictObject({
  field: z.enum(['name', 'description', 'counterparty', 'note']),
  op: z.enum(['is', 'contains', 'starts_with', 'one_of', 'matches']),
  value: z.union([text, z.array(text).min(1).max(200)]),
  caseSensitive: z.boolean().optional(),
  negate: z.boolean().optional(),
});
const AmountLeaf = z.strictObject({
  field: z.literal('amount'),
  op: z.enum(['eq', 'approx', 'between', 'gt', 'lt', 'sign']),
  value: z.union([z.number(), z.tuple([z.number(), z.number()]), z.enum(['income', 'expense'])]),
  tolerancePct: z.number().min(0).max(100).optional(),
  negate: z.boolean().optional(),
});
const IdLeaf = z.strictObject({
  field: z.enum(['account', 'currency']),
  op: z.enum(['is', 'one_of']),
  value: z.union([text, z.array(text).min(1).max(200)]),
  negate: z.boolean().optional(),
});
const CategoryLeaf = z.strictObject({
  field: z.literal('category'),
  op: z.enum(['is', 'one_of', 'empty']),
  value: z.union([text, z.array(text).min(1).max(200)]).optional(),
  negate: z.boolean().optional(),
});
const DateLeaf = z.strictObject({
  field: z.literal('date'),
  op: z.enum(['before', 'after', 'between', 'day_of_month']),
  value: z.union([Day, z.tuple([Day, Day]), z.tuple([z.number().int().min(1).max(31), z.number().int().min(1).max(31)])]),
  negate: z.boolean().optional(),
});

export type RuleConditionInput =
  | z.infer<typeof TextLeaf>
  | z.infer<typeof AmountLeaf>
  | z.infer<typeof IdLeaf>
  | z.infer<typeof CategoryLeaf>
  | z.infer<typeof DateLeaf>
  | { all: RuleConditionInput[] }
  | { any: RuleConditionInput[] }
  | { not: RuleConditionInput };

/** A condition tree: leaves, `{all: […]}`, `{any: […]}`, `{not: …}`; at most 8 levels deep (checked on save). */
export const RuleCondition: z.ZodType<RuleConditionInput> = z
  .lazy(() =>
    z.union([
      TextLeaf,
      AmountLeaf,
      IdLeaf,
      CategoryLeaf,
      DateLeaf,
      z.strictObject({ all: z.array(RuleCondition).max(50) }),
      z.strictObject({ any: z.array(RuleCondition).max(50) }),
      z.strictObject({ not: RuleCondition }),
    ]),
  )
  .meta({ id: 'RuleCondition' });

const SplitPart = z
  .strictObject({
    amount: z.number().positive().optional(),
    percent: z.number().positive().max(100).optional(),
    categorySlug: z.string().min(1).max(100).nullable().optional(),
    note: z.string().max(500).nullable().optional(),
  })
  .refine((p) => (p.amount === undefined) !== (p.percent === undefined), 'each part has either amount or percent');

export const RuleAction = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('set_category'), categorySlug: z.string().min(1).max(100) }),
  z.strictObject({ type: z.literal('add_tags'), tagIds: z.array(z.string().min(1).max(200)).min(1).max(20) }),
  z.strictObject({ type: z.literal('set_note'), note: z.string().max(2000) }),
  z.strictObject({ type: z.literal('append_note'), note: z.string().min(1).max(2000) }),
  z.strictObject({ type: z.literal('rename_counterparty'), counterpartyName: z.string().min(1).max(500) }),
  z.strictObject({ type: z.literal('mark_internal') }),
  z.strictObject({ type: z.literal('mark_recurring'), frequency: z.enum(FREQUENCIES) }),
  z.strictObject({ type: z.literal('exclude') }),
  z.strictObject({
    type: z.literal('split'),
    parts: z.array(SplitPart).min(1).max(20),
    remainderCategorySlug: z.string().min(1).max(100).nullable().optional(),
    remainderNote: z.string().max(500).nullable().optional(),
  }),
]);

export const RULE_TRIGGERS = ['import', 'create'] as const;

export const RuleInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  stage: z.enum(RULE_STAGES).default('default'),
  enabled: z.boolean().default(true),
  conditions: RuleCondition,
  actions: z.array(RuleAction).min(1).max(20),
  applyOn: z.array(z.enum(RULE_TRIGGERS)).max(2).default(['import', 'create']).describe('when the rule runs by itself'),
});
export type RuleInput = z.infer<typeof RuleInput>;

export const RulePatch = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  stage: z.enum(RULE_STAGES).optional(),
  enabled: z.boolean().optional(),
  conditions: RuleCondition.optional(),
  actions: z.array(RuleAction).min(1).max(20).optional(),
  applyOn: z.array(z.enum(RULE_TRIGGERS)).max(2).optional(),
});
export type RulePatch = z.infer<typeof RulePatch>;

export const Rule = z
  .object({
    id: z.string(),
    name: z.string(),
    stage: z.enum(RULE_STAGES),
    enabled: z.boolean(),
    conditions: z.unknown().describe('the condition tree as saved (see the RuleCondition input schema)'),
    actions: z.array(z.unknown()),
    applyOn: z.array(z.string()),
    specificity: z.number().describe('rules run by stage, then specificity ascending: a more specific rule wins'),
    matchCount: z.number().int(),
    lastMatchedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Rule' });
export type Rule = z.infer<typeof Rule>;

const FieldChange = z.object({ field: z.string(), before: z.unknown(), after: z.unknown(), ruleId: z.string() });

export const RuleRunResult = z
  .object({
    dryRun: z.boolean(),
    scanned: z.number().int(),
    changed: z.number().int(),
    transactions: z.array(z.object({ id: z.string(), name: z.string(), date: z.string(), changes: z.array(FieldChange) })),
    failures: z.array(z.object({ ruleId: z.string(), transactionId: z.string(), message: z.string() })),
    truncated: z.boolean().describe('true when more transactions changed than are listed (limit)'),
  })
  .meta({ id: 'RuleRunResult' });

/** Which transactions a dry run or a run on history covers: ids, or a date window (at most 100,000 transactions). */
export const RuleScope = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).min(1).max(10_000).optional(),
  start: Day.optional(),
  end: Day.optional(),
  onlyUncategorized: z.boolean().optional(),
  limit: z.number().int().min(1).max(10_000).default(500).describe('how many changed transactions to list'),
});

export const RuleDryRun = RuleScope.extend({
  rule: RuleInput.optional().describe('an unsaved rule to preview; without it every enabled rule runs'),
  ruleId: z.string().min(1).max(200).optional(),
});

export const RuleLint = z
  .object({
    problems: z.array(z.object({ ruleId: z.string(), message: z.string() })),
    neverMatched: z.array(z.object({ ruleId: z.string(), name: z.string() })),
    shadowed: z.array(
      z.object({ ruleId: z.string(), name: z.string(), by: z.array(z.string()), transactions: z.number().int() }),
    ),
    conflicts: z.array(
      z.object({
        ruleIds: z.tuple([z.string(), z.string()]),
        field: z.string(),
        transactions: z.number().int(),
        example: z.string(),
      }),
    ),
    window: z.object({ start: z.string(), end: z.string() }),
  })
  .meta({ id: 'RuleLint' });

export const RuleSuggestion = z.object({
  name: z.string(),
  counterparty: z.string(),
  categorySlug: z.string(),
  agree: z.number().int(),
  of: z.number().int(),
  uncategorized: z.number().int().describe('uncategorised transactions the rule would categorise now'),
  rule: RuleInput,
});

export const CategorySuggestion = z.object({
  transactionId: z.string(),
  categorySlug: z.string().nullable().describe('null: the model abstains'),
  confidence: z.number(),
  evidence: z.enum(['payee', 'words']).nullable(),
  autoApply: z.boolean().describe(`true at or above the auto-apply threshold`),
});

export const RecurringSeries = z
  .object({
    id: z.string(),
    payee: z.string(),
    bankAccountId: z.string().nullable(),
    currency: z.string(),
    frequency: z.string(),
    amount: z.number(),
    nextAmount: z.number(),
    firstDate: z.string(),
    lastDate: z.string(),
    nextDate: z.string(),
    occurrences: z.number().int(),
    active: z.boolean(),
    priceChanged: z.boolean(),
    categorySlug: z.string().nullable(),
  })
  .meta({ id: 'RecurringSeries' });
export type RecurringSeries = z.infer<typeof RecurringSeries>;

const RuleIdParams = idParams();
const tag = 'rules';
const read = ['transactions.read'] as const;
const write = ['transactions.write'] as const;

export const ruleRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/rules',
    tag,
    summary: 'Extension: the team’s rules, in run order',
    scopes: read,
    responses: { 200: z.object({ data: z.array(Rule) }) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/rules',
    tag,
    summary: 'Extension: create a rule (preview it first with /rules/dry-run)',
    scopes: write,
    body: RuleInput,
    responses: { 201: Rule },
  }),
  dryRun: defineRoute({
    method: 'POST',
    path: '/rules/dry-run',
    tag,
    summary: 'Extension: the exact field changes a rule (saved or not) or all rules would make, without writing',
    scopes: read,
    body: RuleDryRun,
    responses: { 200: RuleRunResult },
  }),
  lint: defineRoute({
    method: 'GET',
    path: '/rules/lint',
    tag,
    summary: 'Extension: invalid, shadowed, never-matching and conflicting rules over the last 12 months',
    scopes: read,
    responses: { 200: RuleLint },
  }),
  suggestions: defineRoute({
    method: 'GET',
    path: '/rules/suggestions',
    tag,
    summary: 'Extension: rules worth creating, learned from how payees were categorised (3 of the last 5 agree)',
    scopes: read,
    responses: { 200: z.object({ data: z.array(RuleSuggestion) }) },
  }),
  categorySuggestions: defineRoute({
    method: 'GET',
    path: '/rules/category-suggestions',
    tag,
    summary: 'Extension: a suggested category per transaction with its confidence; the model abstains when unsure',
    scopes: read,
    query: z.object({
      ids: z.preprocess(
        (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
        z.array(z.string().min(1).max(200)).min(1).max(500),
      ),
    }),
    responses: { 200: z.object({ data: z.array(CategorySuggestion) }) },
  }),
  similar: defineRoute({
    method: 'GET',
    path: '/rules/similar',
    tag,
    summary:
      'Extension: after categorising a transaction, the uncategorised ones from the same payee and the dry run of applying it',
    scopes: read,
    query: z.object({ transactionId: z.string().min(1).max(200) }),
    responses: { 200: z.object({ rule: RuleInput.nullable(), preview: RuleRunResult }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/rules/:id',
    tag,
    summary: 'Extension: one rule',
    scopes: read,
    params: RuleIdParams,
    responses: { 200: Rule },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/rules/:id',
    tag,
    summary: 'Extension: change a rule',
    scopes: write,
    params: RuleIdParams,
    body: RulePatch,
    responses: { 200: Rule },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/rules/:id',
    tag,
    summary: 'Extension: delete a rule',
    scopes: write,
    params: RuleIdParams,
    responses: { 200: Rule },
  }),
  run: defineRoute({
    method: 'POST',
    path: '/rules/:id/run',
    tag,
    summary: 'Extension: run a rule on history; the answer lists exactly what changed (what its dry run showed)',
    scopes: write,
    params: RuleIdParams,
    body: RuleScope,
    responses: { 200: RuleRunResult },
  }),
  failures: defineRoute({
    method: 'GET',
    path: '/rules/:id/failures',
    tag,
    summary: 'Extension: actions of this rule that could not apply, newest first',
    scopes: read,
    params: RuleIdParams,
    responses: {
      200: z.object({
        data: z.array(z.object({ transactionId: z.string().nullable(), message: z.string(), createdAt: z.string() })),
      }),
    },
  }),
  recurring: defineRoute({
    method: 'GET',
    path: '/recurring-series',
    tag,
    summary: 'Extension: recurring series detected from history (subscriptions, payroll, rent, tax prepayments)',
    scopes: read,
    responses: { 200: z.object({ data: z.array(RecurringSeries) }) },
  }),
  detectRecurring: defineRoute({
    method: 'POST',
    path: '/recurring-series/detect',
    tag,
    summary: 'Extension: detect recurring series now and mark their transactions (fields a person set are kept)',
    scopes: write,
    responses: { 200: z.object({ data: z.array(RecurringSeries), marked: z.number().int() }) },
  }),
};
