import { type Db, openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { write } from '../../../src-main/store/write';
import { importWorkflow } from '../../../src-main/workflows/catalog';
import type { WorkflowDefinitionInput } from '../../../src-shared/contract/workflow-definition';
import { tmpDir } from '../../helpers/tmp';

/** A real data dir with a team, for engine and store tests. */
export function openTestDb(): { db: Db; dataDir: string; teamId: string; otherTeamId: string } {
  const dataDir = tmpDir('finops-wf-');
  const db = openDatabase(dataDir);
  return { db, dataDir, teamId: ensureTeam(db, 'Workflow Team').id, otherTeamId: ensureTeam(db, 'Other Team').id };
}

/** A manual workflow that notifies, imported, promoted and active (API execution on). */
export function definition(overrides: Partial<WorkflowDefinitionInput> = {}): WorkflowDefinitionInput {
  return {
    name: 'Notify',
    active: true,
    apiExecution: true,
    triggers: [{ type: 'manual' }],
    nodes: [{ id: 'notify', kind: 'notify', message: 'Hello {{trigger.name}}' }],
    ...overrides,
  };
}

export function importActive(db: Db, teamId: string, def: WorkflowDefinitionInput = definition()): string {
  return importWorkflow(db, teamId, def, { promote: true }).workflowId;
}

let invoiceCounter = 0;

/** An invoice row of the team (the invoices area owns the resource; a run only reads it). */
export function insertInvoice(db: Db, teamId: string, fields: { status?: string; amountMinor?: number } = {}): string {
  invoiceCounter += 1;
  return write(db, teamId, (w) =>
    w.insert('invoice', {
      invoice_number: `WF-${invoiceCounter}-${Math.random().toString(36).slice(2, 8)}`,
      status: fields.status ?? 'overdue',
      currency: 'EUR',
      amount_minor: fields.amountMinor ?? 120_000,
      issue_date: '2026-10-01',
      due_date: '2026-10-31',
      customer_name: 'ACME GmbH',
    }),
  );
}
