import type { Json } from '../../src-shared/contract/workflow-definition';
import { templatePaths } from '../../src-shared/domain/workflow-trigger-inputs';

/**
 * Templates in node fields: `{{trigger.invoiceId}}`, `{{vars.invoice.invoiceNumber}}`. A placeholder is a dotted
 * path into the run's context (`trigger`: the trigger data, `vars`: what earlier nodes loaded, `run`: id, number and
 * workflow id, `triggerType`). A template that is exactly one placeholder yields the value itself, keeping its type
 * (an id, a number, an object); inside longer text a value is written as text, objects as JSON, a missing value as
 * nothing. No expressions, no code: a definition can read the context and nothing else.
 */

export interface RunContext {
  trigger: Record<string, unknown>;
  vars: Record<string, unknown>;
  run: { id: string; number: number; workflowId: string };
  triggerType: string;
}

export const CONTEXT_ROOTS = ['trigger', 'vars', 'run', 'triggerType'] as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/** The paths a template reads, for validation (one rule with the app's start form). */
export { templatePaths };

/** Why a path cannot be read from a run's context, or undefined when it can. */
export function pathProblem(path: string): string | undefined {
  if (!PATH.test(path)) return `"${path}" is not a dotted path such as vars.invoice.status`;
  const root = path.split('.')[0];
  if (!(CONTEXT_ROOTS as readonly string[]).includes(root ?? '')) {
    return `"${path}" starts with "${root}"; a path starts with one of ${CONTEXT_ROOTS.join(', ')}`;
  }
  return undefined;
}

export function readPath(ctx: RunContext, path: string): unknown {
  let value: unknown = ctx;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function renderTemplate(text: string, ctx: RunContext): unknown {
  const whole = WHOLE.exec(text);
  if (whole) return readPath(ctx, whole[1] ?? '');
  return text.replace(PLACEHOLDER, (_, path: string) => asText(readPath(ctx, path)));
}

/** A template that must give text (a message, a title). */
export function renderText(text: string, ctx: RunContext): string {
  return asText(renderTemplate(text, ctx));
}

/** Renders every string inside a JSON value (a notification's metadata, an HTTP body). */
export function renderJson(value: Json, ctx: RunContext): unknown {
  if (typeof value === 'string') return renderTemplate(value, ctx);
  if (Array.isArray(value)) return value.map((v) => renderJson(v, ctx));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderJson(v, ctx)]));
  }
  return value;
}

/** Strings found anywhere in a JSON value (for validating the templates inside it). */
export function jsonStrings(value: Json | undefined): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(jsonStrings);
  return [];
}
