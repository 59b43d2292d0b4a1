import { z } from 'zod';
import { JsonValue, multiValue, PageSize } from './common';
import { BooleanQuery, CursorQuery, pageOf } from './list';
import { defineRoute } from './route';
import { TRIGGER_TYPES, WorkflowDefinition } from './workflow-definition';
import { IdempotencyKey, RUN_STATUSES, StartAck, WorkflowRun, WorkflowRunStep } from './workflows';

/**
 * The internal app API for workflows (under `/app`, same credentials and scopes as /v1): what the renderer and the
 * CLI need that the public API deliberately lacks — definitions and versions, activation, run lists, approvals,
 * cancel. Paths here are relative to `/app`. Not for third-party clients: it may change with the app.
 */

const INTERNAL = 'Internal app API (under /app, not part of the public v1 contract).';

export const AppWorkflowIdParams = z.object({ id: z.string().min(1).max(200) });

export const WorkflowTrigger = z.object({
  type: z.enum(TRIGGER_TYPES),
  cron: z.string().optional(),
  timezone: z.string().optional(),
  segment: z.string().optional(),
});

export const WorkflowSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  active: z.boolean(),
  apiExecution: z.boolean(),
  promotedVersion: z.number().int().nullable().describe('the version that runs; null: none promoted yet'),
  latestVersion: z.number().int(),
  triggers: z.array(WorkflowTrigger).describe('of the promoted version (of the latest while none is promoted)'),
  webhookPath: z.string().nullable().describe('where signed webhook calls go, when the workflow declares a webhook trigger'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WorkflowSummary = z.infer<typeof WorkflowSummary>;

export const WorkflowVersionInfo = z.object({
  version: z.number().int(),
  createdAt: z.string(),
  author: z
    .string()
    .nullable()
    .describe(
      'who stored the version (user:<id>, api-key:<id>, oauth-client:<id>, cli); null for versions from before authors were kept. Whoever wrote the version a run executes does not approve that run (four eyes)',
    ),
  authorName: z.string().nullable().describe('who stored it, in words (the member’s, key’s or client’s name)'),
  promoted: z.boolean(),
  valid: z.boolean().describe('whether this build of the app accepts the definition'),
});

export const WorkflowDetail = WorkflowSummary.extend({
  versions: z.array(WorkflowVersionInfo),
  definition: JsonValue.describe('the promoted definition (the latest while none is promoted)'),
});
export type WorkflowDetail = z.infer<typeof WorkflowDetail>;

export const ImportWorkflowBody = z.strictObject({
  definition: WorkflowDefinition,
  promote: z.boolean().default(false),
});

export const PromoteBody = z.strictObject({ version: z.number().int().min(1) });

export const AppStartBody = z.strictObject({
  triggerType: z.string().min(1).max(100).default('manual'),
  triggerData: z.record(z.string(), JsonValue).default({}),
  idempotencyKey: IdempotencyKey.optional(),
});

export const ApprovalStatus = z.enum(['pending', 'approved', 'rejected', 'canceled']);

export const WorkflowApproval = z.object({
  id: z.string(),
  stepId: z.string(),
  nodeId: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  status: ApprovalStatus,
  deadlineAt: z.string().nullable(),
  deadlineOutcome: z.enum(['approved', 'rejected']).nullable(),
  decidedBy: z.string().nullable().describe('who decided; "deadline" when the deadline did'),
  decidedByName: z
    .string()
    .nullable()
    .describe(
      'who decided, in words: the member’s, API key’s or OAuth client’s name (null for the deadline, the CLI or a former member)',
    ),
  decidedAt: z.string().nullable(),
  comment: z.string().nullable(),
  createdAt: z.string(),
});
export type WorkflowApproval = z.infer<typeof WorkflowApproval>;

const RUN_SOURCES = ['api', 'chat', 'app', 'cli', 'trigger', 'schedule', 'webhook'] as const;

const RunExtras = {
  runId: z.string(),
  workflowName: z.string(),
  version: z.number().int(),
  source: z.enum(RUN_SOURCES),
  startedBy: z
    .string()
    .nullable()
    .describe(
      'who started the run by hand (user:<id>, api-key:<id>, oauth-client:<id>, cli); null for a trigger, a schedule or a webhook. Whoever started a run does not approve it (four eyes)',
    ),
  startedByName: z.string().nullable().describe('who started it, in words (the member’s, key’s or client’s name)'),
  conversationId: z.string().nullable(),
  errorMessage: z.string().nullable(),
  queuedAt: z.string(),
  startedAt: z.string().nullable(),
};

export const WorkflowRunSummary = WorkflowRun.omit({ steps: true }).extend({
  ...RunExtras,
  stepCount: z.number().int(),
  pendingApproval: WorkflowApproval.nullable(),
});
export type WorkflowRunSummary = z.infer<typeof WorkflowRunSummary>;

export const WorkflowRunDetail = WorkflowRun.extend({
  ...RunExtras,
  triggerData: JsonValue,
  steps: z.array(WorkflowRunStep.extend({ kind: z.string(), attempt: z.number().int() })),
  approvals: z.array(WorkflowApproval),
});
export type WorkflowRunDetail = z.infer<typeof WorkflowRunDetail>;

export const DecisionBody = z.strictObject({ comment: z.string().max(2000).optional() });

export const WorkflowListQuery = z.object({
  cursor: CursorQuery,
  pageSize: PageSize,
  active: BooleanQuery,
});

export const RunListQuery = z.object({
  cursor: CursorQuery,
  pageSize: PageSize,
  workflowId: z.string().min(1).max(200).optional(),
  statuses: multiValue(z.enum(RUN_STATUSES)),
});

/** A team's workflow settings, the same in every process that advances its runs (docs/decisions/0149). */
export const WorkflowSettings = z
  .object({
    httpHosts: z.array(z.string()).describe('hosts (host or host:port) HTTP nodes may call; empty: HTTP nodes are off'),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'WorkflowSettings' });

export const WorkflowSettingsPut = z.strictObject({
  httpHosts: z.array(z.string().max(300)).max(100, 'at most 100 hosts').describe('replaces the list; [] turns HTTP nodes off'),
});

const read = { tag: 'app: workflows', scopes: ['workflows.read'], mount: '/app' } as const;
const write = { tag: 'app: workflows', scopes: ['workflows.write'], mount: '/app' } as const;

export const appWorkflowRoutes = {
  settings: defineRoute({
    ...read,
    method: 'GET',
    path: '/workflow-settings',
    summary: 'The team’s workflow settings (the HTTP allow-list)',
    description: INTERNAL,
    responses: { 200: WorkflowSettings },
  }),
  putSettings: defineRoute({
    ...write,
    method: 'PUT',
    path: '/workflow-settings',
    summary: 'Replace the team’s workflow settings; every process advancing its runs reads them',
    description: INTERNAL,
    body: WorkflowSettingsPut,
    responses: { 200: WorkflowSettings },
  }),
  list: defineRoute({
    ...read,
    method: 'GET',
    path: '/workflows',
    summary: 'List the team’s workflows',
    description: INTERNAL,
    query: WorkflowListQuery,
    responses: { 200: pageOf(WorkflowSummary) },
  }),
  import: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflows',
    summary: 'Import a workflow definition (a new workflow, or a new version when definition.id is the team’s)',
    description: `${INTERNAL} An invalid definition is answered 422 naming each problem.`,
    body: ImportWorkflowBody,
    responses: { 201: WorkflowDetail },
  }),
  get: defineRoute({
    ...read,
    method: 'GET',
    path: '/workflows/:id',
    summary: 'Read a workflow with its versions and promoted definition',
    description: INTERNAL,
    params: AppWorkflowIdParams,
    responses: { 200: WorkflowDetail },
  }),
  promote: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflows/:id/promote',
    summary: 'Promote a version: from now on it is the one that runs',
    description: INTERNAL,
    params: AppWorkflowIdParams,
    body: PromoteBody,
    responses: { 200: WorkflowDetail },
  }),
  activate: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflows/:id/activate',
    summary: 'Activate a workflow (its triggers start runs)',
    description: INTERNAL,
    params: AppWorkflowIdParams,
    responses: { 200: WorkflowDetail },
  }),
  deactivate: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflows/:id/deactivate',
    summary: 'Deactivate a workflow (no new runs; runs in progress go on)',
    description: INTERNAL,
    params: AppWorkflowIdParams,
    responses: { 200: WorkflowDetail },
  }),
  start: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflows/:id/runs',
    summary: 'Start a run from the app (API execution need not be enabled)',
    description: INTERNAL,
    params: AppWorkflowIdParams,
    body: AppStartBody,
    responses: { 200: StartAck },
  }),
  listRuns: defineRoute({
    ...read,
    method: 'GET',
    path: '/workflow-runs',
    summary: 'List runs, newest first',
    description: INTERNAL,
    query: RunListQuery,
    responses: { 200: pageOf(WorkflowRunSummary) },
  }),
  getRun: defineRoute({
    ...read,
    method: 'GET',
    path: '/workflow-runs/:id',
    summary: 'Read a run with its steps and approvals (never step inputs, outputs or chat replies)',
    description: INTERNAL,
    params: AppWorkflowIdParams,
    responses: { 200: WorkflowRunDetail },
  }),
  approve: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflow-runs/:id/approve',
    summary: 'Approve what the run waits for; it goes on along the approval’s "approved" edge',
    description: `${INTERNAL} 409 when the run is not waiting for an approval. 403 when the caller started the run (four eyes: a person whichever credential they use, a key, an OAuth client); in a team of at most one person its owner or an apis.all key may approve what it started.`,
    params: AppWorkflowIdParams,
    body: DecisionBody.nullish(),
    responses: { 200: WorkflowRunDetail },
  }),
  reject: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflow-runs/:id/reject',
    summary: 'Reject what the run waits for; it goes on along the "rejected" edge (or ends)',
    description: `${INTERNAL} 409 when the run is not waiting for an approval.`,
    params: AppWorkflowIdParams,
    body: DecisionBody.nullish(),
    responses: { 200: WorkflowRunDetail },
  }),
  retry: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflow-runs/:id/retry',
    summary: 'Start a failed run again: a new run of the promoted version with the same trigger and data',
    description: `${INTERNAL} 409 when the run has not failed. Retrying one run twice answers the same new run.`,
    params: AppWorkflowIdParams,
    responses: { 200: StartAck },
  }),
  cancel: defineRoute({
    ...write,
    method: 'POST',
    path: '/workflow-runs/:id/cancel',
    summary: 'Cancel a run that has not finished (a step in flight completes first)',
    description: `${INTERNAL} 409 when the run has already finished.`,
    params: AppWorkflowIdParams,
    responses: { 200: WorkflowRunDetail },
  }),
};
