import { describe, expect, it } from 'vitest';
import { type KeyPress, reviewCommand } from '../../../../src-renderer/screens/transactions/review-keys';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('the review grid’s keys', () => {
  it('moves with J/K and the arrows, and extends the selection with Shift', () => {
    expect(reviewCommand(press('j'))).toEqual({ command: 'next', extend: false });
    expect(reviewCommand(press('ArrowUp'))).toEqual({ command: 'previous', extend: false });
    expect(reviewCommand(press('ArrowDown', { shiftKey: true }))).toEqual({ command: 'next', extend: true });
    expect(reviewCommand(press('End', { shiftKey: true }))).toEqual({ command: 'last', extend: true });
  });

  it('gives the review actions their letters', () => {
    const letters = {
      c: 'categorise',
      t: 'tag',
      n: 'note',
      s: 'split',
      r: 'reviewed',
      e: 'excluded',
      z: 'undo',
      a: 'applySimilar',
    };
    for (const [key, command] of Object.entries(letters)) expect(reviewCommand(press(key))?.command).toBe(command);
    expect(reviewCommand(press(' '))?.command).toBe('toggle');
    expect(reviewCommand(press('Enter'))?.command).toBe('open');
  });

  it('reads Ctrl and Cmd as the same, with their own commands', () => {
    expect(reviewCommand(press('a', { ctrlKey: true }))?.command).toBe('selectAll');
    expect(reviewCommand(press('A', { metaKey: true, shiftKey: true }))).toEqual({ command: 'selectAll', extend: false });
    expect(reviewCommand(press('z', { ctrlKey: true }))?.command).toBe('undo');
    // Ctrl+C stays the browser's copy, not "categorise".
    expect(reviewCommand(press('c', { ctrlKey: true }))).toBeNull();
  });

  it('leaves Alt combinations, other keys and object property names alone', () => {
    expect(reviewCommand(press('j', { altKey: true }))).toBeNull();
    expect(reviewCommand(press('q'))).toBeNull();
    expect(reviewCommand(press('constructor'))).toBeNull();
  });
});
