/**
 * User text → an FTS5 query that cannot fail: the words (runs of letters and digits, any script) each become a
 * quoted prefix term, ANDed. Quotes, operators and parentheses never reach FTS5 syntax. No words → no text filter.
 * At most 16 words are used.
 */
export function ftsQuery(q: string | undefined): string | null {
  if (!q) return null;
  const words = q.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const terms = words.slice(0, 16).map((w) => `"${w}"*`);
  return terms.length > 0 ? terms.join(' ') : null;
}
