/**
 * Scopes, exactly as the v1 contract lists them: `<area>.read` / `<area>.write` for each area, read-only `search`
 * and `runs`, and two umbrellas. `apis.all` grants every scope; `apis.read` grants every `*.read` scope.
 * A credential whose scope list is empty (or holds nothing known) is "scope-less" and authenticates as 401.
 */
export const READ_WRITE_AREAS = [
  'bank-accounts',
  'chat',
  'customers',
  'documents',
  'inbox',
  'invoices',
  'metrics',
  'reports',
  'tags',
  'teams',
  'tracker-entries',
  'tracker-projects',
  'transactions',
  'users',
  'workflows',
  'notifications',
  'operations',
] as const;
export const READ_ONLY_AREAS = ['search', 'runs'] as const;
export const UMBRELLA_SCOPES = ['apis.all', 'apis.read'] as const;

export type Area = (typeof READ_WRITE_AREAS)[number] | (typeof READ_ONLY_AREAS)[number];
export type Scope =
  | `${(typeof READ_WRITE_AREAS)[number]}.${'read' | 'write'}`
  | `${(typeof READ_ONLY_AREAS)[number]}.read`
  | (typeof UMBRELLA_SCOPES)[number];

export const ALL_SCOPES: readonly Scope[] = [
  ...READ_WRITE_AREAS.flatMap((a) => [`${a}.read`, `${a}.write`] as Scope[]),
  ...READ_ONLY_AREAS.map((a) => `${a}.read` as Scope),
  ...UMBRELLA_SCOPES,
];

const KNOWN = new Set<string>(ALL_SCOPES);

export function isScope(value: string): value is Scope {
  return KNOWN.has(value);
}

/** The concrete scopes a granted list amounts to, umbrellas expanded. Unknown strings are dropped. */
export function expandScopes(granted: readonly string[]): Set<Scope> {
  const out = new Set<Scope>();
  for (const s of granted) {
    if (s === 'apis.all') {
      for (const x of ALL_SCOPES) if (!x.startsWith('apis.')) out.add(x);
    } else if (s === 'apis.read') {
      for (const x of ALL_SCOPES) if (x.endsWith('.read') && !x.startsWith('apis.')) out.add(x);
    } else if (isScope(s)) {
      out.add(s);
    }
  }
  return out;
}

/** True when every required scope is granted (after expanding umbrellas). */
export function grants(granted: ReadonlySet<Scope>, required: readonly Scope[]): boolean {
  return required.every((s) => granted.has(s));
}

/** Parses a comma- or space-separated scope list; returns the unknown entries separately so callers can reject them. */
export function parseScopeList(text: string): { scopes: Scope[]; unknown: string[] } {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const scopes: Scope[] = [];
  const unknown: string[] = [];
  for (const p of parts) (isScope(p) ? scopes : unknown).push(p as Scope);
  return { scopes: [...new Set(scopes)], unknown };
}
