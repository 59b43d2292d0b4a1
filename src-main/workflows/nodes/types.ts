import type { EdgeLabel, WorkflowNode } from '../../../src-shared/contract/workflow-definition';
import type { Db } from '../../store/db';
import type { RunState } from '../../store/workflows/runs/state';
import type { NewApproval } from '../../store/workflows/runs/steps';
import type { EffectPorts } from '../effects';
import type { RunContext } from '../templates';

/** What a node sees while it runs. */
export interface NodeContext {
  db: Db;
  teamId: string;
  runId: string;
  workflowId: string;
  /** The step's idempotency key: the same on every attempt of this step. */
  effectKey: string;
  attempt: number;
  run: RunContext;
  now: Date;
  ports: EffectPorts;
}

/** What a node decides: go on (along an edge label), wait, or fail the run. */
export type Outcome =
  | { kind: 'next'; label?: EdgeLabel; output?: unknown; vars?: Record<string, unknown> }
  | { kind: 'wait'; wakeAt: string | null; approval?: NewApproval }
  | { kind: 'fail'; message: string };

export interface NodeImpl<N extends WorkflowNode = WorkflowNode> {
  /**
   * 'local': touches only this database and runs inside the transaction that completes its step, so its effect and
   * the step's completion commit together or not at all. 'external': reaches outside (HTTP); its step is committed
   * as running first and completed after, so a crash in between leaves a step that may have run.
   */
  mode: 'local' | 'external';
  /** Whether running the node again after it may have run repeats nothing that must not happen twice. */
  idempotent(node: N): boolean;
  run(node: N, c: NodeContext): Outcome | Promise<Outcome>;
  /** A waiting step woken up (a decision, a deadline, the end of a delay); runs inside the completing transaction. */
  resume?(node: N, c: NodeContext, state: RunState): Outcome;
}
