import { z } from 'zod';
import { JsonValue } from './common';
import { defineRoute } from './route';

/**
 * The public workflow operations, exactly the three the spec has: start a run of a published workflow (execute,
 * chat) and read a run. Everything else (definitions, versions, run lists, approvals, cancel) is the internal app
 * API (contract/app-workflows.ts), never /v1. Rules the spec leaves open: docs/decisions/0102-workflow-start-rules.md.
 */

export const RUN_STATUSES = ['pending', 'running', 'waiting', 'completed', 'failed', 'canceled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const STEP_STATUSES = ['running', 'waiting', 'completed', 'failed', 'canceled'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const WorkflowIdParams = z.object({ id: z.string().min(1).max(200).describe('the workflow UUID') });
export const ExecutionIdParams = z.object({ executionId: z.string().min(1).max(200).describe('an execution UUID') });

export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .describe('1 to 255 characters; shared by execute and chat for one workflow: a reuse answers the existing execution');

const TriggerData = z
  .record(z.string(), JsonValue)
  .describe('record identifiers inside (invoiceId, customerId, transactionId) must be records of the caller’s team');

export const ExecuteBody = z.strictObject({
  triggerType: z
    .string()
    .min(1)
    .max(100)
    .default('manual')
    .describe('invoice_overdue, manual, webhook, payment_failed or customer_segment_entered; must be declared by the workflow'),
  triggerData: TriggerData.default({}),
  idempotencyKey: IdempotencyKey.optional(),
});
export type ExecuteBody = z.infer<typeof ExecuteBody>;

export const ChatBody = z.strictObject({
  message: z.string().min(1).max(8000).describe('passed to the workflow as trigger data under message'),
  conversationId: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('echoed and passed to the workflow; does not restore earlier messages or resume a run'),
  triggerData: TriggerData.optional().describe('merged; the top-level message and conversationId win'),
  idempotencyKey: IdempotencyKey.optional(),
});
export type ChatBody = z.infer<typeof ChatBody>;

export const StartAck = z.object({
  executionId: z.uuid(),
  runId: z.string().describe('short run reference for support correlation'),
  queuedAt: z.string().describe('ISO 8601 timestamp'),
  status: z.literal('queued').describe('the start acknowledgment; read the run for its state'),
});
export type StartAck = z.infer<typeof StartAck>;

export const ChatAck = StartAck.extend({
  conversationId: z.string().nullable().describe('the request’s conversationId; null when it was omitted'),
});
export type ChatAck = z.infer<typeof ChatAck>;

export const WorkflowRunStep = z.object({
  id: z.string(),
  nodeId: z.string(),
  status: z.enum(STEP_STATUSES),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  errorMessage: z.string().nullable(),
});
export type WorkflowRunStep = z.infer<typeof WorkflowRunStep>;

/** The spec's Workflow run resource, exactly: step inputs, outputs and chat replies are never in it. */
export const WorkflowRun = z.object({
  executionId: z.uuid(),
  workflowId: z.string(),
  status: z.enum(RUN_STATUSES),
  currentNodeId: z.string().nullable(),
  triggerType: z.string(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  steps: z.array(WorkflowRunStep),
});
export type WorkflowRun = z.infer<typeof WorkflowRun>;

export const workflowRoutes = {
  execute: defineRoute({
    method: 'POST',
    path: '/workflows/:id/execute',
    tag: 'workflows',
    summary: 'Start a run of a published workflow',
    description:
      'Needs an active workflow with a valid promoted version and API execution enabled. The body idempotencyKey is shared with chat: a reuse answers the existing execution (after the same access and readiness checks); without a key a retry starts another run.',
    scopes: ['workflows.write'],
    params: WorkflowIdParams,
    // Every field has a default: an empty body is a manual run without trigger data.
    body: ExecuteBody.nullish(),
    responses: { 200: StartAck },
  }),
  // The spec's overview lists POST /workflows/{id}/runs; its detailed contract has execute. The same operation under
  // the overview's name: same body, checks, key space and answer (docs/decisions/0149-workflow-settings-and-emitted-triggers.md).
  startRun: defineRoute({
    method: 'POST',
    path: '/workflows/:id/runs',
    tag: 'workflows',
    summary: 'Start a run of a published workflow (the overview’s name for execute; identical to it)',
    description:
      'POST /workflows/{id}/execute under the name the spec’s overview gives it: the same body, checks, idempotency key space (shared with execute and chat) and start acknowledgment (HTTP 200).',
    scopes: ['workflows.write'],
    params: WorkflowIdParams,
    body: ExecuteBody.nullish(),
    responses: { 200: StartAck },
  }),
  chat: defineRoute({
    method: 'POST',
    path: '/workflows/:id/chat',
    tag: 'workflows',
    summary: 'Start a run of a published workflow with a chat message',
    description: 'The workflow must declare a manual trigger. The answer carries no generated reply; read the run for its state.',
    scopes: ['workflows.write'],
    params: WorkflowIdParams,
    body: ChatBody,
    responses: { 200: ChatAck },
  }),
  getRun: defineRoute({
    method: 'GET',
    path: '/workflows/runs/:executionId',
    tag: 'workflows',
    summary: 'Read a workflow run of the caller’s team',
    scopes: ['workflows.read'],
    params: ExecutionIdParams,
    responses: { 200: WorkflowRun },
  }),
};
