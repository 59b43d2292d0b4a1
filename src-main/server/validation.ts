import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Request validation: the contract's zod schemas, after one check of every text in the body (docs/decisions/
 * 0014-request-bodies.md). A NUL character or a lone surrogate (half of a UTF-16 pair, which no UTF-8 text can hold)
 * is refused wherever it appears in a body, keys included, with a 422 naming the field: nothing odd is stored, and
 * no route has to think of it. Queries and paths are not stored; a search for such text simply finds nothing. A body
 * nested deeper than MAX_BODY_DEPTH is refused the same way.
 */
export const contractValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route);
  if (route.httpPart !== 'body') return validate;
  return (data) => {
    const issues: TextIssue[] = [];
    findOddText(data, '', issues);
    return issues.length > 0 ? { error: issues as never } : validate(data);
  };
};

interface TextIssue {
  keyword: 'text';
  instancePath: string;
  schemaPath: string;
  params: Record<string, never>;
  message: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is looked for.
const ODD = /[\u0000\p{Cs}]/u;

function oddness(text: string): string | undefined {
  if (!ODD.test(text)) return undefined;
  return text.includes('\u0000')
    ? 'must not contain NUL characters (U+0000)'
    : 'must not contain lone surrogates (text that is not valid Unicode)';
}

/** JSON Pointer of a key (`~` and `/` escaped), itself free of odd characters so that it can be shown. */
const pointerOf = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1').replace(ODD, '\uFFFD');

/**
 * The deepest nesting of arrays and objects a body may have: far beyond any contract's shape (a rule's condition
 * tree, an editor document), and shallow enough that nothing walking a body recursively afterwards (zod, the
 * idempotency fingerprint, JSON.stringify into SQLite) can run out of stack. Deeper is 422 naming where.
 */
export const MAX_BODY_DEPTH = 64;

/** Walks the body without recursion (a hostile body may nest thousands of levels deep). */
function findOddText(root: unknown, rootPath: string, issues: TextIssue[]): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length > 0 && issues.length < 20) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const message = oddness(value);
      if (message) issues.push({ keyword: 'text', instancePath: path, schemaPath: '#', params: {}, message });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    // Records and arrays only (a parsed query's prototype is a bare object): a parsed upload (a Buffer, a multipart
    // part) is bytes, not text.
    const isArray = Array.isArray(value);
    if (!isArray) {
      const proto = Object.getPrototypeOf(value);
      if (proto !== null && proto !== Object.prototype && Object.getPrototypeOf(proto) !== null) continue;
    }
    if (depth >= MAX_BODY_DEPTH) {
      issues.push({
        keyword: 'text',
        instancePath: path,
        schemaPath: '#',
        params: {},
        message: `nests deeper than ${MAX_BODY_DEPTH} levels of arrays and objects`,
      });
      return;
    }
    const entries: [string, unknown][] = isArray
      ? (value as unknown[]).map((item, i) => [String(i), item])
      : Object.entries(value as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const at = `${path}/${isArray ? key : pointerOf(key)}`;
      if (!isArray) {
        const message = oddness(key);
        if (message)
          issues.push({ keyword: 'text', instancePath: at, schemaPath: '#', params: {}, message: `its name ${message}` });
      }
      stack.push({ value: item, path: at, depth: depth + 1 });
    }
  }
}
