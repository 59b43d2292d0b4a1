/** The local server's first-choice port: stable per data dir (the window's origin, so its storage, survives). */
import { describe, expect, it } from 'vitest';
import { PORT_RANGE, preferredPort } from '../../../src-main/desktop/preferred-port';

describe('preferredPort', () => {
  it('is the same for one data dir at every launch, however the path is written', () => {
    expect(preferredPort('/home/a/.config/Finops Desk/data')).toBe(preferredPort('/home/a/.config/Finops Desk/x/../data'));
  });

  it('differs between data dirs and stays below the ephemeral ranges', () => {
    const ports = new Set(Array.from({ length: 200 }, (_, i) => preferredPort(`/data/${i}`)));
    expect(ports.size).toBeGreaterThan(190);
    for (const p of ports) {
      expect(p).toBeGreaterThanOrEqual(PORT_RANGE.first);
      expect(p).toBeLessThan(32768);
    }
  });
});
