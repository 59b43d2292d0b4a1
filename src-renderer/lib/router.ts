/**
 * A small path router over the History API: the server answers every non-/v1 path with the UI (SPA fallback), so
 * /customers or /settings can be bookmarked and reloaded.
 */
import { create } from 'zustand';

interface RouterState {
  path: string;
  navigate(path: string): void;
}

const currentPath = () => globalThis.location?.pathname || '/';

export const useRouter = create<RouterState>((set) => ({
  path: currentPath(),
  navigate(to) {
    // `to` may carry a query (`/time?project=…`): the path names the screen, the query is the screen's to read.
    const url = new URL(to, globalThis.location.href);
    const before = currentPath();
    if (url.pathname === before && url.search === globalThis.location.search) return;
    globalThis.history.pushState(null, '', `${url.pathname}${url.search}`);
    // The same screen with another query: it reads its address again as on Back and Forward.
    if (url.pathname === before) globalThis.dispatchEvent(new PopStateEvent('popstate'));
    set({ path: url.pathname });
  },
}));

globalThis.addEventListener?.('popstate', () => useRouter.setState({ path: currentPath() }));

/** The record a detail path names under a screen's path (`/invoices/abc` → "abc"), or null on the screen's own path. */
export function pathId(path: string, base: string): string | null {
  if (!path.startsWith(`${base}/`)) return null;
  const rest = path.slice(base.length + 1).split('/')[0] ?? '';
  return rest ? decodeURIComponent(rest) : null;
}
