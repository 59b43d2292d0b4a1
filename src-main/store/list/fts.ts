/**
 * User text → an FTS5 query that cannot fail: the words (runs of letters and digits, any script) each become a
 * quoted prefix term, ANDed. Quotes, operators and parentheses never reach FTS5 syntax. No words → no text filter.
 * At most 16 words are used.
 */
export function ftsQuery(q: string | undefined): string | null {
  const terms = ftsWords(q).map((w) => `"${w}"*`);
  return terms.length > 0 ? terms.join(' ') : null;
}

/** The words of user text as `ftsQuery` uses them (NFKC, letters, digits and marks only, at most 16). */
export function ftsWords(q: string | undefined): string[] {
  if (!q) return [];
  return (q.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).slice(0, 16);
}
