import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { createBankAccount } from '../../../../src-main/store/bank-accounts/bank-accounts';
import { upsertCustomer } from '../../../../src-main/store/customers/write';
import { openDatabase } from '../../../../src-main/store/db';
import { setSmtpSettings } from '../../../../src-main/store/invoices/smtp';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import { createTrackerProject } from '../../../../src-main/store/tracker/projects';
import { CLI_PRINCIPAL } from '../../../../src-main/store/workflows/runs/approvals';
import { importWorkflow } from '../../../../src-main/workflows/catalog';
import { LAWFUL_BUYER_ADDRESS, makeTeamLawful } from '../../../helpers/lawful-team';

/** What the traffic needs of the seeded team: its key and the records the writes hang off. */
export interface SeededTeam {
  teamId: string;
  key: string;
  /** The EUR account of manual transactions and imports. */
  bankAccountId: string;
  /** A customer with an email address: every invoice is addressed to it. */
  customerId: string;
  /** The project tracker entries are recorded on. */
  projectId: string;
  /** An active workflow of one notify step, startable over the API. */
  workflowId: string;
}

export const TEAM = 'Crash Harness';

/**
 * Seeds a fresh data dir before the first server starts: a team whose invoices may be issued (lawful-team.ts), its
 * key, its mail server (the test's SMTP sink on loopback) and a workflow whose one step notifies once per run.
 */
export function seedTeam(dataDir: string, smtpPort: number): SeededTeam {
  const db = openDatabase(dataDir);
  try {
    const teamId = ensureTeam(db, TEAM).id;
    makeTeamLawful(db, teamId);
    const { key } = createApiKey(db, { teamId, name: 'crash harness', scopes: ['apis.all'] });
    const bankAccountId = createBankAccount(db, teamId, { name: 'Harness EUR', currency: 'EUR' }).id;
    const customerId = upsertCustomer(db, teamId, {
      name: 'Buyer GmbH',
      email: 'ap@buyer.example',
      ...LAWFUL_BUYER_ADDRESS,
    }).customer.id;
    const projectId = createTrackerProject(db, teamId, { name: 'Harness hours', rate: 90 }).id;
    setSmtpSettings(db, teamId, {
      host: '127.0.0.1',
      port: smtpPort,
      security: 'none',
      username: null,
      fromAddress: 'billing@harness.example',
      fromName: 'Harness Billing',
    });
    const { workflowId } = importWorkflow(
      db,
      teamId,
      {
        name: 'Notify once',
        active: true,
        apiExecution: true,
        triggers: [{ type: 'manual' }],
        nodes: [{ id: 'tell', kind: 'notify', message: 'run {{trigger.mark}}' }],
      },
      { promote: true, author: CLI_PRINCIPAL },
    );
    return { teamId, key, bankAccountId, customerId, projectId, workflowId };
  } finally {
    db.close();
  }
}
