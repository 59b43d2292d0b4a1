import { z } from 'zod';
import { PageMeta } from './common';

/**
 * Building blocks of list and record routes, so a new resource declares its columns and filters instead of copying
 * the customers contract: the hosted `sort` tuple, multi-value and boolean filters, the page wrapper, id params.
 */

/**
 * `sort` in the hosted form, a repeated key: `?sort=name&sort=asc`. One value (`?sort=name`) sorts ascending.
 * Parses to `{column, direction}` or undefined (the resource's default order).
 */
export function sortParam<const C extends readonly [string, ...string[]]>(columns: C, defaultOrder: string) {
  type Column = C[number];
  return z
    .preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.string()).min(1).max(2).optional())
    .transform((v, ctx) => {
      if (!v) return undefined;
      const [column, direction = 'asc'] = v;
      if (!(columns as readonly string[]).includes(column ?? '')) {
        ctx.addIssue({ code: 'custom', message: `unknown sort column "${column}"; one of ${columns.join(', ')}` });
        return z.NEVER;
      }
      if (direction !== 'asc' && direction !== 'desc') {
        ctx.addIssue({ code: 'custom', message: `sort direction must be asc or desc, got "${direction}"` });
        return z.NEVER;
      }
      return { column: column as Column, direction: direction as 'asc' | 'desc' };
    })
    .describe(
      `[column, direction] as a repeated key, e.g. sort=${columns[0]}&sort=asc; columns: ${columns.join(', ')}; default ${defaultOrder}`,
    );
}

export type SortOrder<C extends string> = { column: C; direction: 'asc' | 'desc' };

/** A boolean query value: `true`/`false` (also 1/0; the hosted service rejects booleans there: we accept them). */
export const BooleanQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1')
  .optional();

/** A page of records: `{data, meta}` (the hosted wrapper). `topLevelCursor` also repeats meta.cursor as `cursor`. */
export function pageOf<T extends z.ZodType>(item: T, options: { topLevelCursor?: boolean } = {}) {
  return options.topLevelCursor
    ? z.object({ data: z.array(item), cursor: z.string().nullable(), meta: PageMeta })
    : z.object({ data: z.array(item), meta: PageMeta });
}

export const CursorQuery = z.string().max(1000).optional().describe('opaque cursor from the previous page');

/**
 * `{id}` path parameter of a record route. Any string: an id that is not the team's (malformed or not) is 404,
 * never 422.
 */
export function idParams<const N extends string = 'id'>(name: N = 'id' as N) {
  return z.object({ [name]: z.string().min(1).max(200) } as { [K in N]: z.ZodString });
}

export const RecordIdParams = idParams();
