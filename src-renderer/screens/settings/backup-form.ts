/** What the backup schedule's form reads from what a person typed. */

/** A whole number as typed, or null: "24" and " 7 " are numbers; "1.5", "", "12h" and "1e3" are not. */
export function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : null;
}
