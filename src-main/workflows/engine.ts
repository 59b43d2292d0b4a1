import type { WorkflowDefinition, WorkflowNode } from '../../src-shared/contract/workflow-definition';
import type { Db } from '../store/db';
import { cancelClaimedRun } from '../store/workflows/runs/cancel';
import { type Claim, releaseRun, renewRunLease } from '../store/workflows/runs/claims';
import { loadRunState, type OpenStep, type RunState } from '../store/workflows/runs/state';
import {
  beginStep,
  completeStep,
  failRun,
  LeaseLost,
  type RunnerCommit,
  resumeRun,
  retryStep,
  waitStep,
} from '../store/workflows/runs/steps';
import { write } from '../store/write';
import { loadVersion } from './definitions';
import type { EffectPorts } from './effects';
import { type NodeContext, nodeImpl, type Outcome } from './nodes';
import type { RunContext } from './templates';
import { entryNode, nextNode } from './validate';

/**
 * Advances one claimed run, step by step, until it waits, finishes, or this process must let go of it
 * (docs/decisions/0101-durable-workflow-engine.md).
 *
 * The step protocol, which is what makes runs durable:
 * 1. The step is committed as `running` (with its effect key) before its node runs.
 * 2. A local node (every kind but HTTP) runs inside the transaction that completes the step: its effect and the
 *    step's completion commit together or not at all. An external node (HTTP) runs between two commits.
 * 3. The step's outcome is committed: completed (and the run moves to the next node), waiting, or failed.
 * Every commit checks, in its transaction, that this process still holds the run's lease.
 *
 * After a crash, the run's lease lapses and another process claims it. A step found `running` may have had its
 * effect: it runs again (same effect key, attempt + 1) only when its node is idempotent, otherwise the step and the
 * run fail with a message saying so. A step found `waiting` resumes (a decision, a deadline, a delay's end).
 */

export type FaultPoint = 'before-step' | 'after-step-start' | 'after-effect' | 'after-step-complete' | 'before-resume';

/** Test hook: throws (a SimulatedCrash) at chosen points to stand for the process dying there. */
export interface FaultInjector {
  hit(point: FaultPoint, info: { runId: string; nodeId: string; kind: string }): void;
}

/** Stands for the process dying: the runner stops at once and leaves every lease to lapse. */
export class SimulatedCrash extends Error {
  override name = 'SimulatedCrash';
}

export interface EngineOptions {
  owner: string;
  leaseMs: number;
  clock: () => Date;
  ports: EffectPorts;
  faults?: FaultInjector;
  /** Asked between steps: true lets go of the run (server shutdown). */
  shouldStop?: () => boolean;
  onError?: (err: unknown, runId: string) => void;
}

export type DriveResult = 'waiting' | 'completed' | 'failed' | 'canceled' | 'lost' | 'stopped' | 'error';

const FINISHED = new Set(['completed', 'failed', 'canceled']);

export async function driveRun(db: Db, claim: Claim, o: EngineOptions): Promise<DriveResult> {
  try {
    return await drive(db, claim, o);
  } catch (err) {
    if (err instanceof SimulatedCrash) throw err;
    if (err instanceof LeaseLost) return 'lost';
    // An unexpected failure of the machinery (not of a node): keep the claim until it lapses, then a runner retries
    // under the recovery rules, which never repeat a non-idempotent effect.
    o.onError?.(err, claim.runId);
    return 'error';
  }
}

function commitOf(o: EngineOptions): RunnerCommit {
  return { owner: o.owner, now: o.clock().toISOString() };
}

function runContext(state: RunState): RunContext {
  return {
    trigger: state.triggerData,
    vars: state.vars,
    run: { id: state.id, number: state.runNumber, workflowId: state.workflowId },
    triggerType: state.triggerType,
  };
}

async function drive(db: Db, claim: Claim, o: EngineOptions): Promise<DriveResult> {
  const { runId, teamId } = claim;
  for (;;) {
    const now = o.clock();
    if (!renewRunLease(db, runId, o.owner, now, o.leaseMs)) return 'lost';
    const state = loadRunState(db, teamId, runId);
    if (FINISHED.has(state.status)) {
      releaseRun(db, runId, o.owner);
      return state.status as DriveResult;
    }
    if (state.cancelRequested) {
      cancelClaimedRun(db, teamId, runId, commitOf(o));
      releaseRun(db, runId, o.owner);
      return 'canceled';
    }
    if (o.shouldStop?.()) {
      releaseRun(db, runId, o.owner);
      return 'stopped';
    }
    const definition = loadVersion(db, teamId, state.workflowId, state.version);
    if (typeof definition === 'string') {
      failRun(
        db,
        teamId,
        runId,
        commitOf(o),
        state.openStep?.id ?? null,
        `version ${state.version} of the workflow no longer validates: ${definition}`,
      );
      releaseRun(db, runId, o.owner);
      return 'failed';
    }
    const result = await step(db, claim, o, state, definition);
    if (result) {
      if (result !== 'lost') releaseRun(db, runId, o.owner);
      return result;
    }
  }
}

/** One step of the run; returns a result when the drive ends, undefined to go on. */
async function step(
  db: Db,
  claim: Claim,
  o: EngineOptions,
  state: RunState,
  definition: WorkflowDefinition,
): Promise<DriveResult | undefined> {
  const { runId, teamId } = claim;
  const open = state.openStep;
  const nodeOf = (id: string | null | undefined) => definition.nodes.find((n) => n.id === id);

  if (open?.status === 'waiting') {
    const node = nodeOf(open.nodeId);
    if (!node) return fail(db, claim, o, open.id, `node "${open.nodeId}" is not in version ${state.version}`);
    o.faults?.hit('before-resume', { runId, nodeId: node.id, kind: node.kind });
    const impl = nodeImpl(node);
    return settle(db, claim, o, definition, node, open, () => {
      resumeRun(db, teamId, runId, commitOf(o));
      return impl.resume ? impl.resume(node, nodeContext(db, claim, state, open, o), state) : { kind: 'next' };
    });
  }

  if (open?.status === 'running') {
    // Found running: the process that began this step stopped before completing it.
    const node = nodeOf(open.nodeId);
    if (!node) return fail(db, claim, o, open.id, `node "${open.nodeId}" is not in version ${state.version}`);
    const impl = nodeImpl(node);
    if (!impl.idempotent(node)) {
      return fail(
        db,
        claim,
        o,
        open.id,
        `interrupted: the process running this step stopped after it began, so its ${node.kind} effect may have happened; it is not idempotent, so it was not repeated (check the receiving side before running it again)`,
      );
    }
    const attempt = retryStep(db, teamId, runId, commitOf(o), open.id);
    return execute(db, claim, o, state, definition, node, { ...open, attempt });
  }

  const nodeId = state.stepCount === 0 ? entryNode(definition) : state.currentNodeId;
  const node = nodeOf(nodeId);
  if (!node) return fail(db, claim, o, null, `node "${nodeId}" is not in version ${state.version}`);
  const budget = definition.settings.maxSteps;
  if (state.stepCount >= budget) {
    return fail(db, claim, o, null, `stopped: the run exceeded its step budget of ${budget} steps (settings.maxSteps)`);
  }
  o.faults?.hit('before-step', { runId, nodeId: node.id, kind: node.kind });
  const begun = beginStep(db, teamId, runId, commitOf(o), node);
  o.faults?.hit('after-step-start', { runId, nodeId: node.id, kind: node.kind });
  return execute(db, claim, o, state, definition, node, begun);
}

function nodeContext(db: Db, claim: Claim, state: RunState, s: OpenStep, o: EngineOptions): NodeContext {
  return {
    db,
    teamId: claim.teamId,
    runId: claim.runId,
    workflowId: state.workflowId,
    effectKey: s.effectKey,
    attempt: s.attempt,
    run: runContext(state),
    now: o.clock(),
    ports: o.ports,
  };
}

async function execute(
  db: Db,
  claim: Claim,
  o: EngineOptions,
  state: RunState,
  definition: WorkflowDefinition,
  node: WorkflowNode,
  s: OpenStep,
): Promise<DriveResult | undefined> {
  const impl = nodeImpl(node);
  const c = nodeContext(db, claim, state, s, o);
  if (impl.mode === 'local') return settle(db, claim, o, definition, node, s, () => impl.run(node, c) as Outcome);

  // External: the effect happens outside any transaction; keep the lease alive while it takes.
  const renew = setInterval(() => renewRunLease(db, claim.runId, o.owner, o.clock(), o.leaseMs), Math.max(50, o.leaseMs / 3));
  let outcome: Outcome;
  try {
    outcome = await impl.run(node, c);
  } catch (err) {
    outcome = { kind: 'fail', message: `${node.kind} failed: ${(err as Error).message}` };
  } finally {
    clearInterval(renew);
  }
  o.faults?.hit('after-effect', { runId: claim.runId, nodeId: node.id, kind: node.kind });
  return settle(db, claim, o, definition, node, s, () => outcome);
}

/**
 * Commits a step's outcome; `decide` runs inside the same transaction (a local node's effect commits with it).
 * A node that throws fails its step and its run, and its partial writes roll back with the transaction.
 */
function settle(
  db: Db,
  claim: Claim,
  o: EngineOptions,
  definition: WorkflowDefinition,
  node: WorkflowNode,
  s: OpenStep,
  decide: () => Outcome,
): DriveResult | undefined {
  const { runId, teamId } = claim;
  const c = commitOf(o);
  let outcome: Outcome;
  try {
    outcome = write(
      db,
      teamId,
      () => {
        const decided = decide();
        apply(db, claim, c, definition, node, s, decided);
        return decided;
      },
      { origin: 'workflow', now: c.now },
    );
  } catch (err) {
    if (err instanceof LeaseLost || err instanceof SimulatedCrash) throw err;
    outcome = { kind: 'fail', message: `${node.kind} failed: ${(err as Error).message}` };
    apply(db, claim, c, definition, node, s, outcome);
  }
  o.faults?.hit('after-step-complete', { runId, nodeId: node.id, kind: node.kind });
  if (outcome.kind === 'wait') return 'waiting';
  if (outcome.kind === 'fail') return 'failed';
  return undefined;
}

function apply(
  db: Db,
  claim: Claim,
  c: RunnerCommit,
  d: WorkflowDefinition,
  node: WorkflowNode,
  s: OpenStep,
  outcome: Outcome,
): void {
  const { runId, teamId } = claim;
  if (outcome.kind === 'fail') failRun(db, teamId, runId, c, s.id, outcome.message);
  else if (outcome.kind === 'wait') waitStep(db, teamId, runId, c, s.id, { wakeAt: outcome.wakeAt, approval: outcome.approval });
  else
    completeStep(db, teamId, runId, c, s.id, {
      output: outcome.output,
      vars: outcome.vars,
      next: nextNode(d, node.id, outcome.label) ?? null,
    });
}

function fail(db: Db, claim: Claim, o: EngineOptions, stepId: string | null, message: string): DriveResult {
  failRun(db, claim.teamId, claim.runId, commitOf(o), stepId, message);
  return 'failed';
}
