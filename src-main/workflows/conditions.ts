import type { Condition } from '../../src-shared/contract/workflow-definition';
import { type RunContext, readPath } from './templates';

/**
 * Evaluates a condition node's expression against the run's context. Comparisons are strict about types: numbers
 * compare as numbers, strings as strings (ISO dates compare correctly as text), and a comparison between different
 * types is false rather than coerced, so "10" > 9 never decides a customer-facing branch by accident.
 */
export function evaluate(condition: Condition, ctx: RunContext): boolean {
  if ('all' in condition) return condition.all.every((c) => evaluate(c, ctx));
  if ('any' in condition) return condition.any.some((c) => evaluate(c, ctx));
  if ('not' in condition) return !evaluate(condition.not, ctx);
  const actual = readPath(ctx, condition.path);
  const expected = condition.value;
  switch (condition.op) {
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'eq':
      return deepEqual(actual, expected);
    case 'ne':
      return !deepEqual(actual, expected);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return ordered(actual, expected, condition.op);
    case 'in':
      return Array.isArray(expected) && expected.some((e) => deepEqual(actual, e));
    case 'contains':
      if (typeof actual === 'string' && typeof expected === 'string') return actual.includes(expected);
      return Array.isArray(actual) && actual.some((a) => deepEqual(a, expected));
  }
}

function ordered(a: unknown, b: unknown, op: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  const comparable = (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!comparable) return false;
  const x = a as number | string;
  const y = b as number | string;
  if (op === 'gt') return x > y;
  if (op === 'gte') return x >= y;
  if (op === 'lt') return x < y;
  return x <= y;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  return JSON.stringify(a) === JSON.stringify(b);
}
