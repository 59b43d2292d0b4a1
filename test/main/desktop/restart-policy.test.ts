import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../../src-main/desktop/restart-policy';

const options = { maxCrashes: 3, windowMs: 60_000, baseDelayMs: 100, maxDelayMs: 300 };

describe('RestartPolicy', () => {
  it('backs off exponentially, capped, and gives up past maxCrashes within the window', () => {
    const p = new RestartPolicy(options);
    expect(p.onCrash(0)).toEqual({ action: 'restart', delayMs: 100, attempt: 1 });
    expect(p.onCrash(1_000)).toEqual({ action: 'restart', delayMs: 200, attempt: 2 });
    expect(p.onCrash(2_000)).toEqual({ action: 'restart', delayMs: 300, attempt: 3 });
    const fourth = p.onCrash(3_000);
    expect(fourth.action).toBe('give-up');
    expect(fourth.action === 'give-up' && fourth.reason).toMatch(/4 times within 60 s/);
  });

  it('forgets crashes older than the window (one crash an hour always restarts quickly)', () => {
    const p = new RestartPolicy(options);
    for (let hour = 0; hour < 10; hour++) {
      expect(p.onCrash(hour * 3_600_000)).toEqual({ action: 'restart', delayMs: 100, attempt: 1 });
    }
  });

  it('counts only the crashes inside the sliding window', () => {
    const p = new RestartPolicy(options);
    p.onCrash(0);
    p.onCrash(30_000);
    // 0 has left the window at 60 000; 30 000 is still in it.
    expect(p.onCrash(60_000)).toEqual({ action: 'restart', delayMs: 200, attempt: 2 });
  });

  it('gives up at once on a failure restarting cannot fix', () => {
    const p = new RestartPolicy(options);
    expect(p.onCrash(0, false)).toEqual({ action: 'give-up', reason: 'the failure cannot be fixed by restarting' });
  });

  it('reset() starts counting again (a restart asked for by the person)', () => {
    const p = new RestartPolicy(options);
    p.onCrash(0);
    p.onCrash(1);
    p.onCrash(2);
    p.reset();
    expect(p.onCrash(3)).toEqual({ action: 'restart', delayMs: 100, attempt: 1 });
  });
});
