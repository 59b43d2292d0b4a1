import type { Json, RecordResource, WorkflowDefinition } from '../contract/workflow-definition';

/**
 * What a workflow's trigger data must carry (docs/decisions/0102, 0115): the engine's rules of trigger data, and the
 * keys a definition reads from it, so that a person starting a run by hand is asked for them (an invoice picked from
 * a list, not `{{trigger.invoiceId}}` failing at once) and the server checks the same rules.
 */

/** The record ids trigger data may carry, and the resource each names. */
export const REFERENCE_KEYS: Readonly<Record<string, RecordResource>> = {
  invoiceId: 'invoice',
  customerId: 'customer',
  transactionId: 'transaction',
};

/** What the data of each trigger type must carry (one of the keys). */
export const REQUIRED_KEYS: Readonly<Partial<Record<string, readonly string[]>>> = {
  invoice_overdue: ['invoiceId'],
  payment_failed: ['invoiceId', 'transactionId'],
  customer_segment_entered: ['customerId'],
};

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*trigger\.([A-Za-z0-9_]+)\s*\}\}$/;

/** The paths a template reads (`{{vars.invoice.id}}` → `vars.invoice.id`). */
export function templatePaths(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

export interface TriggerInput {
  /** The key of triggerData (`invoiceId`, `message`). */
  key: string;
  /** The record it names, for a reference key: the form offers a picker of them. */
  resource: RecordResource | null;
  /** The run cannot go on without it: a node loads or changes the record it names, or the trigger type needs it. */
  required: boolean;
}

/** The record id fields of the nodes that fail at once when their record is not named. */
function recordIdOf(node: WorkflowDefinition['nodes'][number]): string | undefined {
  if (node.kind === 'load_record' || node.kind === 'update_record') return node.recordId;
  if (node.kind === 'send_invoice_reminder') return node.invoiceId;
  return undefined;
}

/** Every `trigger.<key>` read in a JSON value: in templates, and as a condition's `path`. */
function readKeys(value: Json | undefined, out: Set<string>): void {
  if (typeof value === 'string') {
    for (const path of templatePaths(value)) {
      const [root, key] = path.split('.');
      if (root === 'trigger' && key) out.add(key);
    }
  } else if (Array.isArray(value)) {
    for (const v of value) readKeys(v, out);
  } else if (value && typeof value === 'object') {
    const { path, op } = value as { path?: unknown; op?: unknown };
    if (typeof path === 'string' && typeof op === 'string' && path.startsWith('trigger.')) {
      const key = path.split('.')[1];
      if (key) out.add(key);
    }
    for (const v of Object.values(value)) readKeys(v, out);
  }
}

/**
 * The nodes every run goes through: from the entry node along its single edge until a node branches (a condition,
 * an approval) or the run ends. A record node among them fails every run whose data does not name its record.
 */
function certainNodes(definition: WorkflowDefinition): WorkflowDefinition['nodes'] {
  const byId = new Map(definition.nodes.map((n) => [n.id, n]));
  const targets = new Set(definition.edges.map((e) => e.to));
  let node = definition.start ? byId.get(definition.start) : definition.nodes.find((n) => !targets.has(n.id));
  const out: WorkflowDefinition['nodes'] = [];
  while (node && !out.includes(node)) {
    out.push(node);
    const from = node.id;
    const next = definition.edges.filter((e) => e.from === from);
    if (node.kind === 'condition' || node.kind === 'approval' || next.length !== 1) break;
    node = byId.get(next[0]!.to);
  }
  return out;
}

/**
 * The trigger data a run of this definition reads, in the order the definition first reads it, for a start of the
 * given trigger type; a key the trigger type requires comes first.
 */
export function triggerInputs(definition: WorkflowDefinition, triggerType: string): TriggerInput[] {
  const typeNeeds = REQUIRED_KEYS[triggerType] ?? [];
  const read = new Set<string>(typeNeeds.slice(0, 1));
  readKeys(definition.nodes as unknown as Json, read);
  const needed = new Set(typeNeeds.length === 1 ? typeNeeds : []);
  for (const node of certainNodes(definition)) {
    const key = WHOLE.exec(recordIdOf(node) ?? '')?.[1];
    if (key) needed.add(key);
  }
  return [...read].map((key) => ({ key, resource: REFERENCE_KEYS[key] ?? null, required: needed.has(key) }));
}
