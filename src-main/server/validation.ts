import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Request validation: the contract's zod schemas, after one check of every text in the body (docs/decisions/
 * 0014-request-bodies.md). A NUL character or a lone surrogate (half of a UTF-16 pair, which no UTF-8 text can hold)
 * is refused wherever it appears in a body, keys included, with a 422 naming the field: nothing odd is stored, and
 * no route has to think of it. Queries and paths are not stored; a search for such text simply finds nothing.
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

function findOddText(value: unknown, path: string, issues: TextIssue[]): void {
  if (issues.length >= 20) return;
  if (typeof value === 'string') {
    const message = oddness(value);
    if (message) issues.push({ keyword: 'text', instancePath: path, schemaPath: '#', params: {}, message });
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) findOddText(item, `${path}/${i}`, issues);
  } else if (value !== null && typeof value === 'object') {
    // Records only (a parsed query's prototype is a bare object): a parsed upload (a Buffer, a multipart part) is
    // bytes, not text.
    const proto = Object.getPrototypeOf(value);
    if (proto !== null && proto !== Object.prototype && Object.getPrototypeOf(proto) !== null) return;
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}/${pointerOf(key)}`;
      const message = oddness(key);
      if (message)
        issues.push({ keyword: 'text', instancePath: at, schemaPath: '#', params: {}, message: `its name ${message}` });
      findOddText(item, at, issues);
    }
  }
}
