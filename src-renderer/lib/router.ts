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
  navigate(path) {
    if (path === currentPath()) return;
    globalThis.history.pushState(null, '', path);
    set({ path });
  },
}));

globalThis.addEventListener?.('popstate', () => useRouter.setState({ path: currentPath() }));
