/**
 * A published workflow that asks for an approval and then notifies the team, imported through the internal app API
 * like the CLI would; used by the workflow-runs journey and the screenshots.
 */
import { createApiClient } from '../../../src-shared/api-client';
import { appWorkflowRoutes } from '../../../src-shared/contract/app-workflows';
import type { UiServer } from './ui-server';

export const APPROVAL_WORKFLOW = {
  name: 'Supplier payment approval',
  description: 'Asks a person before a large supplier payment goes out, then tells the team.',
  active: true,
  apiExecution: true,
  triggers: [{ type: 'manual' }],
  nodes: [
    { id: 'ask', kind: 'approval', title: 'Pay Kestrel Software GmbH EUR 4,800?' },
    { id: 'tell', kind: 'notify', type: 'payment_approved', priority: 3, message: 'The supplier payment was approved.' },
  ],
  edges: [{ from: 'ask', to: 'tell', when: 'approved' }],
};

const appRoutes = Object.fromEntries(
  Object.entries(appWorkflowRoutes).map(([k, r]) => [k, { ...r, mount: '/app' as const }]),
) as {
  [K in keyof typeof appWorkflowRoutes]: (typeof appWorkflowRoutes)[K] & { mount: '/app' };
};

export async function importApprovalWorkflow(ui: UiServer, key: string): Promise<string> {
  const client = createApiClient({ baseUrl: ui.url, token: () => key });
  const wf = await client.call(appRoutes.import, { body: { definition: APPROVAL_WORKFLOW as never, promote: true } });
  return wf.id;
}

export async function startRun(ui: UiServer, key: string, workflowId: string): Promise<string> {
  const client = createApiClient({ baseUrl: ui.url, token: () => key });
  return (await client.call(appRoutes.start, { params: { id: workflowId }, body: {} })).executionId;
}

export { appRoutes as workflowAppRoutes };
