import type { RecordResource, WorkflowNode } from '../../../src-shared/contract/workflow-definition';
import { NotFound } from '../../store/errors';
import { loadRecord, recordExists } from '../../store/workflows/records';
import { EffectRefused } from '../effects';
import { renderJson, renderTemplate } from '../templates';
import type { NodeContext, NodeImpl, Outcome } from './types';

/** Nodes that read or set records of the team: load one into the run, set one field. */

type Of<K extends WorkflowNode['kind']> = Extract<WorkflowNode, { kind: K }>;

/** The id a template gives, or why it is no id. */
export function recordIdOf(template: string, c: NodeContext, resource: RecordResource): string | Outcome {
  const id = renderTemplate(template, c.run);
  if (typeof id !== 'string' || id === '') {
    return {
      kind: 'fail',
      message: `${template} gives no ${resource} id (got ${id === undefined ? 'nothing' : JSON.stringify(id)})`,
    };
  }
  return id;
}

export function notFoundMessage(resource: RecordResource, id: string): string {
  return `${resource} ${id} is not a record of this team (or no longer exists)`;
}

export const loadRecordNode: NodeImpl<Of<'load_record'>> = {
  mode: 'local',
  idempotent: () => true,
  run: (node, c) => {
    const id = recordIdOf(node.recordId, c, node.resource);
    if (typeof id !== 'string') return id;
    try {
      return { kind: 'next', vars: { [node.as]: loadRecord(c.db, c.teamId, node.resource, id) }, output: { loaded: id } };
    } catch (err) {
      if (err instanceof NotFound) return { kind: 'fail', message: notFoundMessage(node.resource, id) };
      throw err;
    }
  },
};

export const updateRecordNode: NodeImpl<Of<'update_record'>> = {
  mode: 'local',
  // Setting a field to a value twice leaves it as once.
  idempotent: () => true,
  run: (node, c) => {
    const update = c.ports.recordUpdaters[node.resource];
    if (!update) return { kind: 'fail', message: `updating ${node.resource} records from a workflow is not available yet` };
    const id = recordIdOf(node.recordId, c, node.resource);
    if (typeof id !== 'string') return id;
    if (!recordExists(c.db, c.teamId, node.resource, id)) return { kind: 'fail', message: notFoundMessage(node.resource, id) };
    const value = renderJson(node.value, c.run);
    let result: unknown;
    try {
      result = update(c.db, c.teamId, id, node.field, value);
    } catch (err) {
      if (err instanceof EffectRefused) return { kind: 'fail', message: err.message };
      throw err;
    }
    return { kind: 'next', output: { updated: id, field: node.field, ...(result ? { result } : {}) } };
  },
};
