import { subscribeImportRules } from '../rules/subscriptions';
import { subscribeWorkflowTriggers } from '../workflows/subscriptions';

/**
 * The orchestration folders' subscriptions to the store's domain events (store/events.ts), made once per process
 * before any write: every entry point (the server, each CLI command, the desktop server host, the test set-up)
 * calls this. Idempotent.
 */
let installed = false;

export function installSubscriptions(): void {
  if (installed) return;
  installed = true;
  subscribeWorkflowTriggers();
  subscribeImportRules();
}
