/** The private-hosts list while it is edited: what is added, what is refused at the field, when Save is offered. */
import { describe, expect, it } from 'vitest';
import { addEntries, isChanged, removeEntry } from '../../../../src-renderer/screens/settings/private-hosts-form';

describe('addEntries', () => {
  it('adds what was typed, trimmed; several at once separated by commas or spaces', () => {
    expect(addEntries([], ' 192.168.1.10:587 ')).toEqual({ ok: true, entries: ['192.168.1.10:587'] });
    expect(addEntries(['192.168.1.10:587'], '10.0.0.0/8, mail.lan:993 [::1]:4100')).toEqual({
      ok: true,
      entries: ['192.168.1.10:587', '10.0.0.0/8', 'mail.lan:993', '[::1]:4100'],
    });
  });

  it('skips entries already in the list in any letter case, and refuses when nothing new is left', () => {
    expect(addEntries(['Mail.Lan'], 'mail.lan, sync.lan sync.lan')).toEqual({ ok: true, entries: ['Mail.Lan', 'sync.lan'] });
    expect(addEntries(['mail.lan'], 'MAIL.LAN')).toEqual({ ok: false, problem: 'duplicate' });
  });

  it('refuses nothing typed and a web address (the host is wanted, not a page)', () => {
    for (const typed of ['', '   ', ' , '])
      expect(addEntries([], typed), JSON.stringify(typed)).toEqual({ ok: false, problem: 'empty' });
    expect(addEntries([], 'https://mail.lan:587')).toEqual({ ok: false, problem: 'url' });
    expect(addEntries([], '10.0.0.1 http://x.lan')).toEqual({ ok: false, problem: 'url' });
  });
});

describe('removeEntry and isChanged', () => {
  it('removes the one entry; Save is offered only when the list differs from what is saved', () => {
    const saved = ['192.168.1.10:587', 'mail.lan'];
    expect(removeEntry(saved, 'mail.lan')).toEqual(['192.168.1.10:587']);
    expect(isChanged(saved, saved)).toBe(false);
    expect(isChanged(removeEntry(saved, 'mail.lan'), saved)).toBe(true);
    expect(isChanged(['mail.lan', '192.168.1.10:587'], saved)).toBe(true);
    expect(isChanged([...saved, 'x.lan'], saved)).toBe(true);
    expect(isChanged(removeEntry(saved, 'absent.lan'), saved)).toBe(false);
  });
});
