/**
 * POST /app/metrics/stress-test/preview: the builder's live preview answers the same computation as the saving
 * route without saving anything, and names each invalid driver field like it.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { describe, expect, it } from 'vitest';
import { planDemo } from '../../../../src-main/demo/seed';
import { writeDemo } from '../../../../src-main/demo/write';
import { makeTestApi } from '../../../helpers/api';

describe('POST /app/metrics/stress-test/preview', () => {
  it('computes without saving; field errors name the driver field', async () => {
    const api = await makeTestApi();
    const team = api.team('Preview Co');
    const data = planDemo({ seed: '1', asOf: '2026-06-30' });
    data.baseCurrency = team.baseCurrency;
    writeDemo(api.db, team.id, data);
    const token = api.key('Preview Co');
    const body = {
      from: '2025-07-01',
      to: '2026-06-30',
      horizonMonths: 6,
      drivers: [
        { kind: 'RevenueShock', pct: -30, months: 3 },
        { kind: 'OneTimeExpense', amount: 20000, date: '2026-08-15' },
      ],
    };
    const res = await api.call('POST', '/app/metrics/stress-test/preview', { token, body });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview.stressed.months).toHaveLength(6);
    expect(preview.impacts.map((i: { kind: string }) => i.kind)).toEqual(['RevenueShock', 'OneTimeExpense']);
    expect(preview.stressed.endingCash).toBeLessThan(preview.baseline.endingCash);
    expect(api.db.prepare('SELECT count(*) AS n FROM stress_tests').get()).toEqual({ n: 0 });

    // The saved test of the same inputs has the same figures.
    const saved = (await api.call('POST', '/v1/metrics/stress-test', { token, body })).json();
    expect(saved.stressed.endingCash).toBeCloseTo(preview.stressed.endingCash, 2);

    const bad = await api.call('POST', '/app/metrics/stress-test/preview', {
      token,
      body: { ...body, drivers: [{ kind: 'RevenueShock', pct: -300, months: 0 }] },
    });
    expect(bad.statusCode).toBe(422);
    const paths = bad.json().fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['drivers.0.pct']));
    expect((await api.call('POST', '/app/metrics/stress-test/preview', { body })).statusCode).toBe(401);
  });
});
