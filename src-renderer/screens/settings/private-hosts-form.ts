/**
 * The private-hosts list as a person edits it before saving (PrivateHostsPanel). The shell decides what an entry
 * may be (the rules of `finops serve --allow-private-hosts`); this only catches what is plainly not one while
 * typing, so the person learns it at the field instead of at Save.
 */

/** Why what was typed was not added: nothing typed; only entries already in the list; a web address, not a host. */
export type AddProblem = 'empty' | 'duplicate' | 'url';

export type AddOutcome = { ok: true; entries: string[] } | { ok: false; problem: AddProblem };

/**
 * The list with what was typed added. Several entries may be typed at once, separated by commas or spaces (pasted
 * from `$FINOPS_ALLOW_PRIVATE_HOSTS`, say); ones already in the list, in any letter case, are skipped.
 */
export function addEntries(entries: readonly string[], typed: string): AddOutcome {
  const parts = typed.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return { ok: false, problem: 'empty' };
  // "https://mail.lan" names a page, not a host: the allowance takes the host (and port) only.
  if (parts.some((p) => p.includes('://'))) return { ok: false, problem: 'url' };
  const seen = new Set(entries.map((e) => e.toLowerCase()));
  const added = parts.filter((p) => {
    const key = p.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (added.length === 0) return { ok: false, problem: 'duplicate' };
  return { ok: true, entries: [...entries, ...added] };
}

export function removeEntry(entries: readonly string[], entry: string): string[] {
  return entries.filter((e) => e !== entry);
}

/** Whether the list differs from what is saved (order counts: it is shown as saved). */
export function isChanged(entries: readonly string[], saved: readonly string[]): boolean {
  return entries.length !== saved.length || entries.some((e, i) => e !== saved[i]);
}
