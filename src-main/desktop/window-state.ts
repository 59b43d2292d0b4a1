/**
 * The window's size, position and maximised state, remembered between launches in the app's folder
 * (`window-state.json`). On the way back in, a saved position is used only if the window would still be reachable
 * on one of the current displays (a monitor may have been unplugged): otherwise the window is centred, keeping its
 * size within the largest display.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export interface WindowPlacement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1320, height: 860 };
export const MIN_SIZE = { width: 960, height: 600 };
/** How much of the window's top strip (its title bar) must lie on a display for the saved position to be kept. */
const REACHABLE = { width: 120, height: 40 };

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function loadWindowState(file: string): WindowState | null {
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<WindowState>;
    const b = raw.bounds;
    if (!b || ![b.x, b.y, b.width, b.height].every(isFiniteNumber)) return null;
    return { bounds: { x: b.x, y: b.y, width: b.width, height: b.height }, maximized: raw.maximized === true };
  } catch {
    // Absent or damaged: the defaults do.
    return null;
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state)}\n`);
  fs.renameSync(tmp, file);
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/** Where to open the window, given what was saved and the work areas of the displays now attached. */
export function placeWindow(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  const largest = workAreas.reduce<Rect | null>((m, a) => (!m || a.width * a.height > m.width * m.height ? a : m), null);
  const clamp = (size: number, min: number, max: number | undefined) => Math.max(min, Math.min(size, max ?? size));
  const width = clamp(saved?.bounds.width ?? DEFAULT_SIZE.width, MIN_SIZE.width, largest?.width);
  const height = clamp(saved?.bounds.height ?? DEFAULT_SIZE.height, MIN_SIZE.height, largest?.height);
  const maximized = saved?.maximized ?? false;
  if (!saved) return { width, height, maximized };
  const titleBar: Rect = { x: saved.bounds.x, y: saved.bounds.y, width, height: REACHABLE.height };
  const reachable = workAreas.some((area) => {
    const o = overlap(titleBar, area);
    return o.width >= Math.min(REACHABLE.width, width) && o.height >= REACHABLE.height;
  });
  return reachable ? { x: saved.bounds.x, y: saved.bounds.y, width, height, maximized } : { width, height, maximized };
}
