import type { WorkflowNode } from '../../../src-shared/contract/workflow-definition';
import { resolveApprovalAtDeadline } from '../../store/workflows/runs/approvals';
import { evaluate } from '../conditions';
import { renderText } from '../templates';
import type { NodeImpl } from './types';

/** Nodes that steer a run and touch nothing else: branch, wait for a time, wait for a person. */

type Of<K extends WorkflowNode['kind']> = Extract<WorkflowNode, { kind: K }>;

export const condition: NodeImpl<Of<'condition'>> = {
  mode: 'local',
  idempotent: () => true,
  run: (node, c) => {
    const result = evaluate(node.if, c.run);
    return { kind: 'next', label: result ? 'true' : 'false', output: { result } };
  },
};

export const wait: NodeImpl<Of<'wait'>> = {
  mode: 'local',
  idempotent: () => true,
  run: (node, c) => ({ kind: 'wait', wakeAt: new Date(c.now.getTime() + node.seconds * 1000).toISOString() }),
  resume: (_node, c, state) =>
    state.wakeAt && state.wakeAt > c.now.toISOString()
      ? { kind: 'wait', wakeAt: state.wakeAt }
      : { kind: 'next', output: { waitedUntil: state.wakeAt } },
};

/**
 * Creates the approval a person decides and waits for it as long as it takes (or until its deadline, whose stated
 * outcome then decides). Woken up, it follows the decision's edge; a rejection without a "rejected" edge ends the run.
 */
export const approval: NodeImpl<Of<'approval'>> = {
  mode: 'local',
  idempotent: () => true,
  run: (node, c) => {
    const deadlineAt = node.deadline ? new Date(c.now.getTime() + node.deadline.afterSeconds * 1000).toISOString() : null;
    return {
      kind: 'wait',
      wakeAt: deadlineAt,
      approval: {
        title: renderText(node.title, c.run).slice(0, 500),
        description: node.description ? renderText(node.description, c.run).slice(0, 4000) : null,
        deadlineAt,
        deadlineOutcome: node.deadline?.outcome ?? null,
      },
    };
  },
  resume: (_node, c, state) => {
    const a = state.approval;
    if (!a) return { kind: 'fail', message: 'the approval this step waits for is missing' };
    if (a.status === 'approved' || a.status === 'rejected')
      return { kind: 'next', label: a.status, output: { decision: a.status } };
    if (a.status === 'canceled') return { kind: 'fail', message: 'the approval was canceled' };
    if (a.deadlineAt && a.deadlineAt <= c.now.toISOString() && a.deadlineOutcome) {
      resolveApprovalAtDeadline(c.db, c.teamId, c.runId, a.id, a.deadlineOutcome);
      return { kind: 'next', label: a.deadlineOutcome, output: { decision: a.deadlineOutcome, by: 'deadline' } };
    }
    return { kind: 'wait', wakeAt: a.deadlineAt };
  },
};
