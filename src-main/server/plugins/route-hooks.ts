/**
 * A route's hooks of one kind with `hook` added last. Plugins that act only on some routes (idempotency, the
 * response cache) add their hooks from `onRoute`, where fastify gives a kind's hooks as undefined, one function
 * or an array.
 */
export function withHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  if (existing === undefined) return [hook];
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}
