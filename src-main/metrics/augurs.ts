import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AutoETS, initSync as initEts } from '@bsull/augurs/ets';
import { initSync as initMstl, MSTL } from '@bsull/augurs/mstl';
import type { Forecast, ModelFit } from '../../src-shared/domain/forecast-stats';

/**
 * The library member of the forecast combination (docs/decisions/0092-forecast-method.md): @bsull/augurs, Grafana's
 * time-series library compiled to WASM. Its AutoETS chooses error, trend and damping by AICc but fits no seasonal
 * models, so a yearly cycle goes through MSTL (STL decomposition with period 12; the seasonal part is carried forward,
 * the seasonally adjusted rest is forecast by AutoETS). Without two years of history: AutoETS alone ("ZZN").
 *
 * The WASM modules are instantiated once, synchronously, from the package's own files (no network, no fetch).
 */

let ready = false;

function init(): void {
  if (ready) return;
  const dir = path.dirname(createRequire(__filename).resolve('@bsull/augurs/mstl'));
  initMstl({ module: fs.readFileSync(path.join(dir, 'mstl_bg.wasm')) });
  initEts({ module: fs.readFileSync(path.join(dir, 'ets_bg.wasm')) });
  ready = true;
}

interface Predictor {
  predict(horizon: number, level?: number | null): { point: number[]; intervals?: { lower: number[]; upper: number[] } };
  free(): void;
}

function forecastOf(model: Predictor, h: number): Forecast {
  const f80 = model.predict(h, 0.8);
  const f95 = model.predict(h, 0.95);
  if (!f80.intervals || !f95.intervals) throw new Error('the model gave no prediction intervals');
  return {
    point: f80.point,
    lower80: f80.intervals.lower,
    upper80: f80.intervals.upper,
    lower95: f95.intervals.lower,
    upper95: f95.intervals.upper,
  };
}

export const augursModel: ModelFit = (y, h, { seasonal }) => {
  init();
  const data = Float64Array.from(y);
  if (seasonal) {
    const model = MSTL.ets([12]);
    try {
      model.fit(data);
      return forecastOf(model, h);
    } finally {
      model.free();
    }
  }
  const model = new AutoETS(1, 'ZZN');
  try {
    model.fit(data);
    return forecastOf(model, h);
  } finally {
    model.free();
  }
};
