/**
 * The preload: exposes exactly one object, `window.finops` (FinopsDesktopBridge), through contextBridge. Each
 * method is one `ipcRenderer.invoke` on a named channel; the page never gets ipcRenderer itself.
 */
import { contextBridge, ipcRenderer } from 'electron';
import {
  type DesktopAppInfo,
  type DesktopConnection,
  type DesktopPrivateHosts,
  type FinopsDesktopBridge,
  IPC,
  type SavePrivateHostsResult,
  type SecretStorageKind,
  type ServerStatus,
} from '../../src-shared/desktop-bridge';

const bridge: FinopsDesktopBridge = {
  getConnection: () => ipcRenderer.invoke(IPC.getConnection) as Promise<DesktopConnection>,
  getServerStatus: () => ipcRenderer.invoke(IPC.getServerStatus) as Promise<ServerStatus>,
  onServerStatus: (listener) => {
    const handler = (_event: unknown, status: ServerStatus) => listener(status);
    ipcRenderer.on(IPC.serverStatus, handler);
    return () => void ipcRenderer.removeListener(IPC.serverStatus, handler);
  },
  restartServer: () => ipcRenderer.invoke(IPC.restartServer) as Promise<void>,
  getAppInfo: () => ipcRenderer.invoke(IPC.getAppInfo) as Promise<DesktopAppInfo>,
  sync: {
    setCredential: (baseUrl, secret) => ipcRenderer.invoke(IPC.syncSetCredential, baseUrl, secret) as Promise<void>,
    clearCredential: (baseUrl) => ipcRenderer.invoke(IPC.syncClearCredential, baseUrl) as Promise<boolean>,
    hasCredential: (baseUrl) => ipcRenderer.invoke(IPC.syncHasCredential, baseUrl) as Promise<boolean>,
    storage: () => ipcRenderer.invoke(IPC.syncStorage) as Promise<SecretStorageKind>,
  },
  openSignIn: (url, remoteBaseUrl) => ipcRenderer.invoke(IPC.openSignIn, url, remoteBaseUrl) as Promise<void>,
  operator: {
    getPrivateHosts: () => ipcRenderer.invoke(IPC.getPrivateHosts) as Promise<DesktopPrivateHosts>,
    setPrivateHosts: (entries) => ipcRenderer.invoke(IPC.setPrivateHosts, entries) as Promise<SavePrivateHostsResult>,
  },
};

contextBridge.exposeInMainWorld('finops', bridge);
