import { z } from 'zod';
import { type Json, JsonValue } from './common';

export type { Json };

/**
 * The workflow definition format: what `finops workflow import` reads and `POST /app/workflows` takes. Its JSON
 * Schema is docs/workflow-schema.json, generated from this file (a test holds the two equal). Structure only: the
 * graph rules (one entry node, edges that fit their node, an approval before every customer-facing effect) are
 * checked by src-main/workflows/validate.ts. Design: docs/decisions/0100-workflow-definition-format.md.
 *
 * Values in node fields may be templates: `{{trigger.invoiceId}}`, `{{vars.invoice.invoiceNumber}}`. A template
 * that is one placeholder and nothing else keeps the value's type (a number stays a number).
 */

/** Every trigger a workflow may declare. */
export const TRIGGER_TYPES = [
  'manual',
  'webhook',
  'invoice_overdue',
  'payment_failed',
  'customer_segment_entered',
  'schedule',
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The trigger types a start call (`POST /v1/workflows/{id}/execute`) may name, as the spec lists them. */
export const DISPATCHABLE_TRIGGER_TYPES = [
  'invoice_overdue',
  'manual',
  'webhook',
  'payment_failed',
  'customer_segment_entered',
] as const satisfies readonly TriggerType[];
export type DispatchableTriggerType = (typeof DISPATCHABLE_TRIGGER_TYPES)[number];

/** Records a node can load or update, and a trigger's data can reference by id. */
export const RECORD_RESOURCES = ['invoice', 'customer', 'transaction'] as const;
export type RecordResource = (typeof RECORD_RESOURCES)[number];

/** Fields an `update_record` node may set, per resource (docs/decisions/0100). */
export const UPDATABLE_FIELDS = {
  customer: ['note', 'email', 'billingEmail', 'phone', 'website', 'contact', 'vatNumber'],
  invoice: ['note', 'internalNote'],
  transaction: ['note', 'categorySlug', 'status'],
} as const satisfies Record<RecordResource, readonly string[]>;

export const NODE_KINDS = [
  'condition',
  'approval',
  'notify',
  'update_record',
  'send_invoice_reminder',
  'wait',
  'chat_reply',
  'http_request',
  'load_record',
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** Labels of edges leaving a branching node: a condition's outcome or an approval's decision. */
export const EDGE_LABELS = ['true', 'false', 'approved', 'rejected'] as const;
export type EdgeLabel = (typeof EDGE_LABELS)[number];

export const MAX_NODES = 200;
export const DEFAULT_MAX_STEPS = 100;
export const MAX_STEPS_LIMIT = 1000;
/** One year: the longest a wait or an approval deadline may be. */
export const MAX_WAIT_SECONDS = 366 * 24 * 3600;

const NodeId = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must start with a letter and use only letters, digits, _ and - (at most 64)');
const VarName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be an identifier (letters, digits, _)');
const Template = z.string().max(4000);
const Path = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/, 'must be a dotted path such as vars.invoice.status')
  .max(200);

const Trigger = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('manual') }).describe('started by hand, by the API (execute, chat) or the app'),
  z.strictObject({ type: z.literal('webhook') }).describe('started by a signed POST to /hooks/workflows/{id}'),
  z.strictObject({ type: z.literal('invoice_overdue') }).describe('an invoice became overdue; triggerData.invoiceId'),
  z.strictObject({ type: z.literal('payment_failed') }).describe('a payment failed; triggerData.invoiceId or transactionId'),
  z
    .strictObject({ type: z.literal('customer_segment_entered'), segment: z.string().min(1).max(100).optional() })
    .describe('a customer entered a segment; triggerData.customerId'),
  z
    .strictObject({
      type: z.literal('schedule'),
      cron: z.string().min(1).max(200).describe('five or six field cron expression, e.g. "0 9 * * 1"'),
      timezone: z.string().min(1).max(64).default('UTC').describe('IANA time zone the cron is read in'),
    })
    .describe('fires on its cron; a time missed while the app was closed fires once at the next start'),
]);
export type Trigger = z.infer<typeof Trigger>;

const COMPARISON_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'exists'] as const;
export type ComparisonOp = (typeof COMPARISON_OPS)[number];

export type Condition =
  | { path: string; op: ComparisonOp; value?: Json }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

const Comparison = z.strictObject({
  path: Path.describe('where the value is read: trigger.…, vars.…, triggerType'),
  op: z.enum(COMPARISON_OPS),
  value: JsonValue.optional().describe('compared with; absent for exists'),
});
export const ConditionSchema: z.ZodType<Condition> = z
  .lazy(() =>
    z.union([
      Comparison,
      z.strictObject({ all: z.array(ConditionSchema).min(1).max(50) }),
      z.strictObject({ any: z.array(ConditionSchema).min(1).max(50) }),
      z.strictObject({ not: ConditionSchema }),
    ]),
  )
  .meta({ id: 'Condition' });

const base = {
  id: NodeId,
  name: z.string().max(200).optional().describe('shown in the app'),
};

const RecordId = Template.min(1).describe('the record id, usually a template such as {{trigger.invoiceId}}');

const Node = z.discriminatedUnion('kind', [
  z
    .strictObject({ ...base, kind: z.literal('condition'), if: ConditionSchema })
    .describe('branches: edges labelled "true" and "false"'),
  z
    .strictObject({
      ...base,
      kind: z.literal('approval'),
      title: Template.min(1).describe('what the person is asked, e.g. "Send a reminder for {{vars.invoice.invoiceNumber}}?"'),
      description: Template.optional(),
      deadline: z
        .strictObject({
          afterSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS),
          outcome: z.enum(['approved', 'rejected']).describe('the decision taken when nobody decided in time'),
        })
        .optional(),
    })
    .describe('the run waits until a person approves or rejects; edges labelled "approved" and "rejected"'),
  z
    .strictObject({
      ...base,
      kind: z.literal('notify'),
      message: Template.min(1),
      type: z.string().min(1).max(100).default('workflow'),
      priority: z.number().int().min(1).max(10).default(3).describe('1-3 user notifications, 4-10 insights'),
      metadata: z.record(z.string().max(100), JsonValue).optional().describe('string values may be templates'),
    })
    .describe("creates a notification for the team (the run's effect is idempotent)"),
  z
    .strictObject({
      ...base,
      kind: z.literal('update_record'),
      resource: z.enum(RECORD_RESOURCES),
      recordId: RecordId,
      field: z.string().min(1).max(64).describe('one of the fields allowed for the resource'),
      value: JsonValue.describe('the new value; a string may be a template'),
    })
    .describe('sets one field of a record of the team'),
  z
    .strictObject({ ...base, kind: z.literal('send_invoice_reminder'), invoiceId: RecordId })
    .describe('queues a payment reminder to the customer: customer-facing, so an approval must come first on every path'),
  z
    .strictObject({ ...base, kind: z.literal('wait'), seconds: z.number().int().min(1).max(MAX_WAIT_SECONDS) })
    .describe('the run waits, then goes on'),
  z
    .strictObject({ ...base, kind: z.literal('chat_reply'), text: Template.min(1) })
    .describe('records a reply to the conversation (never returned by the public API)'),
  z
    .strictObject({
      ...base,
      kind: z.literal('http_request'),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
      url: Template.min(1).describe('http(s) URL; its host must be on the server allow-list (empty by default)'),
      headers: z.record(z.string().max(100), Template).optional(),
      body: JsonValue.optional(),
      idempotent: z
        .boolean()
        .default(false)
        .describe('the receiver honours the Idempotency-Key header, so a call cut short by a crash may be repeated'),
      timeoutSeconds: z.number().int().min(1).max(60).default(15),
      as: VarName.optional().describe('keep the JSON response under vars.<as>'),
    })
    .describe('calls an allow-listed host'),
  z
    .strictObject({
      ...base,
      kind: z.literal('load_record'),
      resource: z.enum(RECORD_RESOURCES),
      recordId: RecordId,
      as: VarName,
    })
    .describe('loads a record of the team into vars.<as> (a record of another team is not found)'),
]);
export type WorkflowNode = z.infer<typeof Node>;

const Edge = z.strictObject({
  from: NodeId,
  to: NodeId,
  when: z.enum(EDGE_LABELS).optional().describe('required on edges leaving a condition or an approval'),
});
export type WorkflowEdge = z.infer<typeof Edge>;

export const WorkflowDefinition = z
  .strictObject({
    $schema: z.string().optional(),
    id: z.uuid().optional().describe('the workflow this is a version of; absent: a new workflow'),
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    active: z.boolean().default(false).describe('applied to the workflow when this version is promoted'),
    apiExecution: z
      .boolean()
      .default(false)
      .describe('whether the public API may start it; applied when this version is promoted'),
    triggers: z.array(Trigger).min(1).max(20),
    start: NodeId.optional().describe('the entry node; default: the one node no edge leads to'),
    nodes: z.array(Node).min(1).max(MAX_NODES),
    edges: z
      .array(Edge)
      .max(MAX_NODES * 4)
      .default([]),
    settings: z
      .strictObject({
        maxSteps: z
          .number()
          .int()
          .min(1)
          .max(MAX_STEPS_LIMIT)
          .default(DEFAULT_MAX_STEPS)
          .describe('a run that takes more steps is stopped (loops)'),
      })
      .default({ maxSteps: DEFAULT_MAX_STEPS }),
  })
  .meta({ id: 'WorkflowDefinition', title: 'Finops Desk workflow definition' });
export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
export type WorkflowDefinitionInput = z.input<typeof WorkflowDefinition>;

/** The JSON Schema of the format (docs/workflow-schema.json is this, written out). */
export function workflowJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(WorkflowDefinition, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
