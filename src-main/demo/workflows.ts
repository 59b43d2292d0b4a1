import chat from '../../resources/workflows/chat-assistant.json';
import reminder from '../../resources/workflows/invoice-reminder.json';
import webhook from '../../resources/workflows/webhook-only.json';
import digest from '../../resources/workflows/weekly-overdue-digest.json';
import type { Db } from '../store/db';
import { workflowNames } from '../store/workflows/workflows';
import { importWorkflow } from '../workflows/catalog';

/**
 * The demo's workflows (`finops demo` imports them after the data set): the examples of resources/workflows,
 * imported and promoted, so a fresh demo has workflows to run from the screen (a payment reminder for one of its
 * invoices, with its approval). A team that already has a workflow of the same name keeps it (`finops demo
 * --replace` deletes records, not workflows, and does not double them). Not part of `writeDemo`: the data set is
 * the same for the same seed, workflow ids are not.
 */
export const DEMO_WORKFLOWS: readonly unknown[] = [reminder, digest, webhook, chat];

/** Imports and promotes the examples the team does not have yet; returns how many it imported. */
export function importDemoWorkflows(db: Db, teamId: string): number {
  const existing = new Set(workflowNames(db, teamId));
  const missing = DEMO_WORKFLOWS.filter((d) => !existing.has((d as { name: string }).name));
  for (const definition of missing) importWorkflow(db, teamId, definition, { promote: true });
  return missing.length;
}
