/** The remembered window: saved and read back through a real file, and placed only where it can be reached. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, loadWindowState, MIN_SIZE, placeWindow, saveWindowState } from '../../../src-main/desktop/window-state';
import { tmpDir } from '../../helpers/tmp';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const external = { x: 1440, y: -200, width: 2560, height: 1415 };

describe('window state', () => {
  it('round-trips through its file; a missing or damaged file gives null', () => {
    const file = path.join(tmpDir('finops-win-'), 'app', 'window-state.json');
    expect(loadWindowState(file)).toBeNull();
    saveWindowState(file, { bounds: { x: 1500, y: 10, width: 1600, height: 1000 }, maximized: true });
    expect(loadWindowState(file)).toEqual({ bounds: { x: 1500, y: 10, width: 1600, height: 1000 }, maximized: true });
    fs.writeFileSync(file, '{"bounds":{"x":"left"}}');
    expect(loadWindowState(file)).toBeNull();
    fs.writeFileSync(file, '{not json');
    expect(loadWindowState(file)).toBeNull();
  });

  it('opens at the default size, centred, the first time', () => {
    expect(placeWindow(null, [laptop])).toEqual({ ...DEFAULT_SIZE, maximized: false });
  });

  it('keeps a saved position that is on a display, the second monitor included', () => {
    const saved = { bounds: { x: 1600, y: 0, width: 1800, height: 1100 }, maximized: false };
    expect(placeWindow(saved, [laptop, external])).toEqual({ x: 1600, y: 0, width: 1800, height: 1100, maximized: false });
  });

  it('centres the window when its monitor is gone, shrinking it to the display that is left', () => {
    const saved = { bounds: { x: 1600, y: 0, width: 1800, height: 1100 }, maximized: true };
    expect(placeWindow(saved, [laptop])).toEqual({ width: 1440, height: 875, maximized: true });
  });

  it('does not keep a position whose title bar is off screen (above the top, or one sliver at the edge)', () => {
    const above = { bounds: { x: 100, y: -500, width: 1200, height: 800 }, maximized: false };
    expect(placeWindow(above, [laptop]).x).toBeUndefined();
    const sliver = { bounds: { x: 1400, y: 100, width: 1200, height: 800 }, maximized: false };
    expect(placeWindow(sliver, [laptop]).x).toBeUndefined();
  });

  it('never goes below the minimum size', () => {
    const tiny = { bounds: { x: 10, y: 10, width: 200, height: 100 }, maximized: false };
    expect(placeWindow(tiny, [laptop])).toMatchObject({ x: 10, y: 10, ...MIN_SIZE });
  });
});
