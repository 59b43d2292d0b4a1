import type { WorkflowDefinition } from '../../src-shared/contract/workflow-definition';
import type { Db } from '../store/db';
import { getWorkflowVersionText } from '../store/workflows/workflows';
import { describeProblems, validateDefinition } from './validate';

/**
 * Stored definitions read back and validated by this build's rules. Versions never change once stored, so a
 * validated one is kept by its text (a handful per workflow).
 */
const cache = new Map<string, WorkflowDefinition | string>();
const MAX_CACHED = 500;

/** The definition, or why this build refuses it (one line). */
export function parseStoredDefinition(text: string): WorkflowDefinition | string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const v = parsed === undefined ? undefined : validateDefinition(parsed);
  const result = !v ? 'the stored definition is not JSON' : v.ok ? v.definition : describeProblems(v.problems);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(text, result);
  return result;
}

export function loadVersion(db: Db, teamId: string, workflowId: string, version: number): WorkflowDefinition | string {
  return parseStoredDefinition(getWorkflowVersionText(db, teamId, workflowId, version));
}

/** Whether this build accepts a stored definition (the app shows it per version). */
export function isValidStoredDefinition(text: string): boolean {
  return typeof parseStoredDefinition(text) !== 'string';
}
