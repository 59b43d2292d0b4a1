import type { Migration } from './index';

/**
 * Issue 33, four eyes over the definition too: `workflow_versions.author`, the principal who stored a version
 * (`user:<id>`, `api-key:<id>`, `oauth-client:<id>`, `cli`), as `workflow_runs.started_by` records who started a run.
 * Whoever wrote the version a run executes does not approve that run (docs/decisions/0188-four-eyes-over-authors.md).
 * Versions from before have none: their runs are guarded by the starter rule alone.
 */
export const workflowVersionAuthors: Migration = {
  version: 28,
  name: 'workflow version authors',
  sql: `ALTER TABLE workflow_versions ADD COLUMN author TEXT;`,
};
