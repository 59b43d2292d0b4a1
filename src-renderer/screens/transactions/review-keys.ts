/**
 * The review grid's keys: which command each key press gives. One table, read by the grid's key handler; the
 * shortcut sheet (ShortcutSheet.tsx) lists the same keys for people.
 */
export type ReviewCommand =
  | 'next'
  | 'previous'
  | 'pageDown'
  | 'pageUp'
  | 'first'
  | 'last'
  | 'toggle'
  | 'selectAll'
  | 'clear'
  | 'open'
  | 'split'
  | 'categorise'
  | 'tag'
  | 'note'
  | 'reviewed'
  | 'excluded'
  | 'undo'
  | 'applySimilar'
  | 'shortcuts'
  | 'search';

const PLAIN = new Map<string, ReviewCommand>([
  ['ArrowDown', 'next'],
  ['j', 'next'],
  ['J', 'next'],
  ['ArrowUp', 'previous'],
  ['k', 'previous'],
  ['K', 'previous'],
  ['PageDown', 'pageDown'],
  ['PageUp', 'pageUp'],
  ['Home', 'first'],
  ['End', 'last'],
  [' ', 'toggle'],
  ['x', 'toggle'],
  ['Escape', 'clear'],
  ['Enter', 'open'],
  ['o', 'open'],
  ['s', 'split'],
  ['c', 'categorise'],
  ['t', 'tag'],
  ['n', 'note'],
  ['r', 'reviewed'],
  ['e', 'excluded'],
  ['z', 'undo'],
  ['a', 'applySimilar'],
  ['?', 'shortcuts'],
  ['/', 'search'],
]);

/** With Ctrl (Cmd on a Mac). */
const WITH_MOD = new Map<string, ReviewCommand>([
  ['a', 'selectAll'],
  ['z', 'undo'],
]);

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** The command of a key press in the grid (Shift extends the selection as the cursor moves); null for other keys. */
export function reviewCommand(e: KeyPress): { command: ReviewCommand; extend: boolean } | null {
  if (e.altKey) return null;
  const mod = e.ctrlKey || e.metaKey;
  const command = mod ? WITH_MOD.get(e.key.toLowerCase()) : PLAIN.get(e.key);
  return command ? { command, extend: !mod && e.shiftKey } : null;
}

/** What each command does on the screen; returning false leaves the key to the browser (nothing to do with it). */
export type ReviewCommands = Readonly<Record<ReviewCommand, (extend: boolean) => unknown>>;

/** The grid's key handler: a key pressed on the grid itself (not in its header's checkbox) runs its command. */
export function onReviewKey(
  e: KeyPress & { target: unknown; currentTarget: unknown; preventDefault(): void },
  commands: ReviewCommands,
): void {
  if (e.target !== e.currentTarget) return;
  const hit = reviewCommand(e);
  if (hit && commands[hit.command](hit.extend) !== false) e.preventDefault();
}
