import type { WorkflowDetail } from '../../src-shared/contract/app-workflows';
import type { Db } from '../store/db';
import { Conflict } from '../store/errors';
import {
  addWorkflowVersion,
  getWorkflow,
  getWorkflowForStart,
  getWorkflowVersionText,
  promoteWorkflowVersion,
  setWorkflowActive,
} from '../store/workflows/workflows';
import { write } from '../store/write';
import { isValidStoredDefinition, parseStoredDefinition } from './definitions';
import { schedulesOf } from './schedule';
import { describeProblems, type Problem, validateDefinition } from './validate';

/**
 * Managing definitions (the CLI and the app API): import a version, promote one, turn a workflow on or off. Every
 * version is validated when it is stored and again when it is promoted; only the promoted version ever runs.
 */

/** The definition does not validate; `problems` lists each (the API answers 422, the CLI prints them). */
export class InvalidDefinition extends Error {
  override name = 'InvalidDefinition';
  constructor(readonly problems: Problem[]) {
    super(`the workflow definition is not valid: ${describeProblems(problems)}`);
  }
}

export interface Imported {
  workflowId: string;
  version: number;
  created: boolean;
  promoted: boolean;
}

/**
 * Stores a definition as a new version (of `workflowId` or the file's `id`, else a new workflow); optionally promotes
 * it. `author` is who stored it (a principal): they do not approve the runs of this version (four eyes).
 */
export function importWorkflow(
  db: Db,
  teamId: string,
  input: unknown,
  options: { promote?: boolean; workflowId?: string; now?: Date; author?: string | null } = {},
): Imported {
  const v = validateDefinition(input);
  if (!v.ok) throw new InvalidDefinition(v.problems);
  return write(db, teamId, () => {
    const added = addWorkflowVersion(db, teamId, v.definition, {
      workflowId: options.workflowId,
      author: options.author ?? null,
    });
    if (options.promote) promote(db, teamId, added.workflowId, added.version, options.now);
    return { ...added, promoted: options.promote ?? false };
  });
}

/** Makes `version` the one that runs; refused (Conflict) when this build does not accept it. */
export function promote(db: Db, teamId: string, workflowId: string, version: number, now = new Date()): void {
  write(db, teamId, () => {
    const definition = parseStoredDefinition(getWorkflowVersionText(db, teamId, workflowId, version));
    if (typeof definition === 'string') throw new Conflict(`version ${version} cannot be promoted: it is not valid`, definition);
    promoteWorkflowVersion(
      db,
      teamId,
      workflowId,
      version,
      {
        name: definition.name,
        description: definition.description ?? null,
        active: definition.active,
        apiExecution: definition.apiExecution,
        triggers: definition.triggers,
      },
      schedulesOf(definition, now),
    );
  });
}

export function setActive(db: Db, teamId: string, workflowId: string, active: boolean, now = new Date()): void {
  write(db, teamId, () => {
    const wf = getWorkflowForStart(db, teamId, workflowId);
    const definition = wf.promotedDefinition === null ? undefined : parseStoredDefinition(wf.promotedDefinition);
    const schedules = definition && typeof definition !== 'string' ? schedulesOf(definition, now) : [];
    setWorkflowActive(db, teamId, workflowId, active, schedules);
  });
}

export function workflowDetail(db: Db, teamId: string, workflowId: string): WorkflowDetail {
  return getWorkflow(db, teamId, workflowId, isValidStoredDefinition);
}
