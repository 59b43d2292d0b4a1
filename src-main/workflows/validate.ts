import { CronExpressionParser } from 'cron-parser';
import {
  type Condition,
  type EdgeLabel,
  UPDATABLE_FIELDS,
  WorkflowDefinition,
  type WorkflowEdge,
  type WorkflowNode,
} from '../../src-shared/contract/workflow-definition';
import { jsonStrings, pathProblem, templatePaths } from './templates';

/**
 * Whether a workflow definition may be stored, promoted and run. The zod schema checks the shape; this checks what a
 * shape cannot say: the graph and the rules of the product. Each problem names the situation a person fixing the
 * file is in (code + message + where), so the CLI and the app can list them all at once.
 *
 * Run start re-validates the promoted version, so a definition stored by an older, laxer build (or edited in the
 * database) is refused with 409 instead of running.
 */
export type ProblemCode =
  /** The JSON does not have the format's shape (a missing field, a typo in a key, a wrong type). */
  | 'schema'
  /** Two nodes share an id, so edges cannot say which one they mean. */
  | 'duplicate_node'
  /** An edge (or `start`) names a node that does not exist. */
  | 'unknown_node'
  /** No node, or more than one, could be where a run begins, and `start` does not say. */
  | 'entry'
  /** An edge's label does not fit the node it leaves, is missing, or repeats one already used. */
  | 'edge_label'
  /** A node no path from the entry reaches: probably a missing edge. */
  | 'unreachable_node'
  /** A customer-facing effect can be reached without passing a person's approval. */
  | 'reminder_without_approval'
  /** An update_record node names a field workflows may not set. */
  | 'update_field'
  /** A schedule trigger's cron or time zone cannot be read. */
  | 'schedule'
  /** The same trigger is declared twice. */
  | 'duplicate_trigger'
  /** A template reads something that is not in a run's context. */
  | 'template';

export interface Problem {
  code: ProblemCode;
  message: string;
  /** Where: `nodes[3].title`, `edges[1]`, `triggers[0].cron`. */
  at?: string;
}

export type Validation = { ok: true; definition: WorkflowDefinition } | { ok: false; problems: Problem[] };

/** Node kinds whose effect reaches the customer: each must come after an approval on every path. */
const CUSTOMER_FACING = new Set<WorkflowNode['kind']>(['send_invoice_reminder']);

const LABELS_BY_KIND: Partial<Record<WorkflowNode['kind'], readonly EdgeLabel[]>> = {
  condition: ['true', 'false'],
  approval: ['approved', 'rejected'],
};

export function validateDefinition(input: unknown): Validation {
  const parsed = WorkflowDefinition.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({
        code: 'schema',
        message: i.message,
        ...(i.path.length ? { at: formatPath(i.path) } : {}),
      })),
    };
  }
  const definition = parsed.data;
  const problems = [...triggerProblems(definition), ...nodeProblems(definition), ...graphProblems(definition)];
  return problems.length ? { ok: false, problems } : { ok: true, definition };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

function triggerProblems(d: WorkflowDefinition): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  d.triggers.forEach((t, i) => {
    const key = t.type === 'schedule' ? `schedule:${t.cron}:${t.timezone}` : t.type;
    if (seen.has(key))
      problems.push({ code: 'duplicate_trigger', message: `trigger ${t.type} is declared twice`, at: `triggers[${i}]` });
    seen.add(key);
    if (t.type === 'schedule') {
      const why = cronProblem(t.cron, t.timezone);
      if (why) problems.push({ code: 'schedule', message: why, at: `triggers[${i}]` });
    }
  });
  return problems;
}

export function cronProblem(cron: string, timezone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    return `"${timezone}" is not an IANA time zone`;
  }
  const fields = cron.trim().split(/\s+/).length;
  if (fields < 5 || fields > 6)
    return `cron "${cron}" must have five fields (minute hour day month weekday) or six (with seconds)`;
  try {
    CronExpressionParser.parse(cron, { tz: timezone });
  } catch (err) {
    return `cron "${cron}" cannot be read: ${(err as Error).message}`;
  }
  return undefined;
}

/** The template strings of a node, with where they are. */
function nodeTemplates(node: WorkflowNode): [string, string][] {
  switch (node.kind) {
    case 'approval':
      return [
        ['title', node.title],
        ['description', node.description ?? ''],
      ];
    case 'notify':
      return [['message', node.message], ...jsonStrings(node.metadata ?? null).map((s): [string, string] => ['metadata', s])];
    case 'update_record':
      return [['recordId', node.recordId], ...jsonStrings(node.value).map((s): [string, string] => ['value', s])];
    case 'send_invoice_reminder':
      return [['invoiceId', node.invoiceId]];
    case 'chat_reply':
      return [['text', node.text]];
    case 'http_request':
      return [
        ['url', node.url],
        ...Object.values(node.headers ?? {}).map((s): [string, string] => ['headers', s]),
        ...jsonStrings(node.body ?? null).map((s): [string, string] => ['body', s]),
      ];
    case 'load_record':
      return [['recordId', node.recordId]];
    case 'condition':
    case 'wait':
      return [];
  }
}

function nodeProblems(d: WorkflowDefinition): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  d.nodes.forEach((node, i) => {
    if (seen.has(node.id))
      problems.push({ code: 'duplicate_node', message: `node id "${node.id}" is used twice`, at: `nodes[${i}]` });
    seen.add(node.id);
    if (node.kind === 'update_record') {
      const allowed: readonly string[] = UPDATABLE_FIELDS[node.resource];
      if (!allowed.includes(node.field)) {
        problems.push({
          code: 'update_field',
          message: `a workflow may not set ${node.resource}.${node.field}; allowed: ${allowed.join(', ')}`,
          at: `nodes[${i}].field`,
        });
      }
    }
    for (const [field, text] of nodeTemplates(node)) {
      for (const path of templatePaths(text)) {
        const why = pathProblem(path);
        if (why) problems.push({ code: 'template', message: why, at: `nodes[${i}].${field}` });
      }
    }
    if (node.kind === 'condition') {
      for (const path of conditionPaths(node.if)) {
        const why = pathProblem(path);
        if (why) problems.push({ code: 'template', message: why, at: `nodes[${i}].if` });
      }
    }
  });
  return problems;
}

function conditionPaths(c: Condition): string[] {
  if ('all' in c) return c.all.flatMap(conditionPaths);
  if ('any' in c) return c.any.flatMap(conditionPaths);
  if ('not' in c) return conditionPaths(c.not);
  return [c.path];
}

/** The entry node of a valid definition: `start`, else the one node no edge leads to. */
export function entryNode(d: WorkflowDefinition): string | undefined {
  if (d.start) return d.start;
  const targets = new Set(d.edges.map((e) => e.to));
  const roots = d.nodes.filter((n) => !targets.has(n.id));
  return roots.length === 1 ? roots[0]?.id : undefined;
}

/**
 * The node a step leads to: the edge leaving `from` with the outcome's label (a branching node), or its one
 * unlabelled edge. Undefined: the run ends there.
 */
export function nextNode(d: WorkflowDefinition, from: string, label?: EdgeLabel): string | undefined {
  return d.edges.find((e) => e.from === from && (e.when ?? undefined) === label)?.to;
}

function graphProblems(d: WorkflowDefinition): Problem[] {
  const problems: Problem[] = [];
  const byId = new Map(d.nodes.map((n) => [n.id, n]));
  if (d.start && !byId.has(d.start))
    problems.push({ code: 'unknown_node', message: `start names no node: "${d.start}"`, at: 'start' });

  const outgoing = new Map<string, WorkflowEdge[]>();
  d.edges.forEach((e, i) => {
    for (const end of ['from', 'to'] as const) {
      if (!byId.has(e[end]))
        problems.push({ code: 'unknown_node', message: `edge ${end} names no node: "${e[end]}"`, at: `edges[${i}].${end}` });
    }
    const node = byId.get(e.from);
    if (!node) return;
    const list = outgoing.get(e.from) ?? [];
    const labels = LABELS_BY_KIND[node.kind];
    if (labels && (!e.when || !labels.includes(e.when))) {
      problems.push({
        code: 'edge_label',
        message: `an edge leaving ${node.kind} "${node.id}" needs when: ${labels.join(' or ')}`,
        at: `edges[${i}]`,
      });
    } else if (!labels && e.when) {
      problems.push({
        code: 'edge_label',
        message: `an edge leaving ${node.kind} "${node.id}" takes no when label`,
        at: `edges[${i}]`,
      });
    } else if (list.some((o) => (o.when ?? null) === (e.when ?? null))) {
      problems.push({
        code: 'edge_label',
        message: e.when
          ? `"${node.id}" has two edges labelled ${e.when}`
          : `"${node.id}" has two outgoing edges; only conditions and approvals branch`,
        at: `edges[${i}]`,
      });
    }
    list.push(e);
    outgoing.set(e.from, list);
  });

  const entry = entryNode(d);
  if (!d.start && !entry) {
    const targets = new Set(d.edges.map((e) => e.to));
    const roots = d.nodes.filter((n) => !targets.has(n.id)).map((n) => n.id);
    problems.push({
      code: 'entry',
      message: roots.length
        ? `several nodes could start a run (${roots.join(', ')}); name one in start`
        : 'every node has an incoming edge, so no node starts a run; name one in start',
    });
  }
  if (!entry || !byId.has(entry) || problems.length) return problems;

  const reachable = walk(entry, outgoing, () => true);
  for (const n of d.nodes) {
    if (!reachable.has(n.id)) problems.push({ code: 'unreachable_node', message: `no path from "${entry}" reaches "${n.id}"` });
  }

  // Walk from the entry without crossing an approval's "approved" edge: a customer-facing node reached this way can
  // run without a person saying yes. An approval that approves by itself at its deadline does not count as one.
  const unapproved = walk(entry, outgoing, (edge) => {
    const from = byId.get(edge.from);
    return !(from?.kind === 'approval' && edge.when === 'approved' && from.deadline?.outcome !== 'approved');
  });
  for (const n of d.nodes) {
    if (CUSTOMER_FACING.has(n.kind) && unapproved.has(n.id)) {
      problems.push({
        code: 'reminder_without_approval',
        message: `"${n.id}" (${n.kind}) reaches the customer and can run without an approval before it; put an approval node whose "approved" edge leads to it on every path (an approval that approves by itself at its deadline does not count)`,
      });
    }
  }
  return problems;
}

function walk(from: string, outgoing: Map<string, WorkflowEdge[]>, follow: (e: WorkflowEdge) => boolean): Set<string> {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const id = queue.pop() as string;
    for (const e of outgoing.get(id) ?? []) {
      if (follow(e) && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return seen;
}

/** "nodes[2].title: …; edges[0]: …" — one line for an error message. */
export function describeProblems(problems: readonly Problem[]): string {
  return problems.map((p) => (p.at ? `${p.at}: ${p.message}` : p.message)).join('; ');
}
