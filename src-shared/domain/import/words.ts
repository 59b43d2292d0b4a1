/**
 * The words of a bank row's texts as dedupe and matching compare them: lower-cased, stripped of accents and
 * punctuation, de-duplicated and sorted, so a parser that orders name and purpose differently, or a bank that changes
 * spacing or case, gives the same words (docs/decisions/0062-dedupe.md).
 */
export function normalizedWords(...texts: (string | null | undefined)[]): string {
  const words = new Set<string>();
  for (const t of texts) {
    if (!t) continue;
    for (const w of t
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)) {
      if (w) words.add(w);
    }
  }
  return [...words].sort().join(' ');
}
