/** The desktop build: the shell's preload provides the local server's address and key (`window.finops`). */
import type { FinopsDesktopBridge } from '../../src-shared/desktop-bridge';
import type { Platform } from './platform';

function bridge(): FinopsDesktopBridge {
  const b = (globalThis as { finops?: FinopsDesktopBridge }).finops;
  if (!b) throw new Error('the desktop bridge is missing (preload not loaded)');
  return b;
}

/** Whether the preload offers the operator's settings (read once: the preload runs before the page). */
const operatorOffered = (globalThis as { finops?: Partial<FinopsDesktopBridge> }).finops?.operator !== undefined;

export const platform: Platform = {
  kind: 'desktop',
  auth: 'key',
  async loadConnection() {
    const { baseUrl, apiKey } = await bridge().getConnection();
    return { baseUrl, apiKey };
  },
  oauthSignIn: {
    redirect: 'loopback',
    open: (authorizeUrl, remoteBaseUrl) => bridge().openSignIn(authorizeUrl, remoteBaseUrl),
  },
  desktop: {
    keyStorage: async () => (await bridge().getConnection()).keyStorage,
    serverStatus: () => bridge().getServerStatus(),
    onServerStatus: (listener) => bridge().onServerStatus(listener),
    restartServer: () => bridge().restartServer(),
    appInfo: () => bridge().getAppInfo(),
    ...(operatorOffered
      ? {
          privateHosts: {
            getPrivateHosts: () => bridge().operator.getPrivateHosts(),
            setPrivateHosts: (entries: string[]) => bridge().operator.setPrivateHosts(entries),
          },
        }
      : {}),
  },
};
