/**
 * Conditions of this area's filtered reads with named parameters (keysetPage takes one params object, so
 * `placeholders` does not serve them): each returns its SQL and binds its values into `params`.
 */

/** `column IN (@prefix0, @prefix1, …)` over `values` (an empty list matches nothing). */
export function inList(column: string, prefix: string, values: readonly string[], params: Record<string, unknown>): string {
  values.forEach((v, k) => {
    params[`${prefix}${k}`] = v;
  });
  return `${column} IN (${values.map((_, k) => `@${prefix}${k}`).join(', ')})`;
}

/** `column` from `from` through `to` (days, both inclusive); an end not given is open. Bound as @from and @to. */
export function dayRange(
  column: string,
  from: string | undefined,
  to: string | undefined,
  params: Record<string, unknown>,
): string[] {
  const where: string[] = [];
  if (from) {
    where.push(`${column} >= @from`);
    params.from = from;
  }
  if (to) {
    where.push(`${column} <= @to`);
    params.to = to;
  }
  return where;
}
