/**
 * The IPC behind `window.finops` (src-shared/desktop-bridge.ts). Every handler first checks that the calling frame
 * is the app's own page at its exact origin (desktop/url-policy.ts): the shell page, a frame that navigated
 * elsewhere or any other URL gets a refusal, whatever the channel. Secrets go in (sync credentials), never out.
 * The private hosts the user allows are the operator's (docs/decisions/0191): set here, by the app's own page,
 * never over the local server's HTTP.
 */
import { app, type IpcMainInvokeEvent, ipcMain } from 'electron';
import {
  type DesktopAppInfo,
  type DesktopConnection,
  type DesktopPrivateHosts,
  IPC,
  type SavePrivateHostsResult,
  type SecretStorageKind,
  type ServerStatus,
} from '../../src-shared/desktop-bridge';
import type { PrivateHostsSetting } from '../desktop/private-hosts';
import type { ServerSupervisor } from '../desktop/supervisor';
import { clearSyncCredential, hasSyncCredential, setSyncCredential } from '../desktop/sync-credentials';
import { isAppUrl } from '../desktop/url-policy';
import type { SecretStore } from '../infra/secret-store';
import { openExternalFor } from './external';

export interface IpcContext {
  appOrigins(): string[];
  supervisor(): ServerSupervisor | null;
  secrets(): SecretStore | null;
  privateHosts: PrivateHostsSetting;
  /** The origin the renderer should call (the dev server's in development, which proxies /v1). */
  rendererBaseUrl(serverUrl: string): string;
  dataDir: string;
  log(message: string): void;
}

export function registerIpc(ctx: IpcContext): void {
  const trusted = <A extends unknown[], R>(handler: (...args: A) => R) => {
    return (event: IpcMainInvokeEvent, ...args: A): R => {
      const url = event.senderFrame?.url ?? '';
      if (!isAppUrl(url, ctx.appOrigins())) throw new Error(`IPC refused for ${url || 'an unknown frame'}`);
      return handler(...args);
    };
  };
  const supervisor = () => {
    const s = ctx.supervisor();
    if (!s) throw new Error('the local server is not started yet');
    return s;
  };
  const secrets = () => {
    const s = ctx.secrets();
    if (!s) throw new Error('the secret store is not open yet');
    return s;
  };

  ipcMain.handle(
    IPC.getConnection,
    trusted(async (): Promise<DesktopConnection> => {
      const ready = await supervisor().whenReady();
      return { baseUrl: ctx.rendererBaseUrl(ready.url), apiKey: ready.apiKey, keyStorage: secrets().kind };
    }),
  );
  ipcMain.handle(
    IPC.getServerStatus,
    trusted((): ServerStatus => supervisor().status),
  );
  ipcMain.handle(
    IPC.restartServer,
    trusted(async () => {
      await supervisor().restart();
    }),
  );
  ipcMain.handle(
    IPC.getAppInfo,
    trusted(
      (): DesktopAppInfo => ({
        appVersion: app.getVersion(),
        electronVersion: process.versions.electron ?? '',
        chromeVersion: process.versions.chrome ?? '',
        nodeVersion: process.versions.node,
        platform: `${process.platform} ${process.arch}`,
        dataDir: ctx.dataDir,
      }),
    ),
  );
  ipcMain.handle(
    IPC.syncSetCredential,
    trusted(async (baseUrl: unknown, secret: unknown) => {
      const normalised = await setSyncCredential(secrets(), baseUrl, secret);
      ctx.supervisor()?.credentialChanged(normalised);
    }),
  );
  ipcMain.handle(
    IPC.syncClearCredential,
    trusted(async (baseUrl: unknown) => clearSyncCredential(secrets(), baseUrl)),
  );
  ipcMain.handle(
    IPC.syncHasCredential,
    trusted(async (baseUrl: unknown) => hasSyncCredential(secrets(), baseUrl)),
  );
  ipcMain.handle(
    IPC.syncStorage,
    trusted((): SecretStorageKind => secrets().kind),
  );
  ipcMain.handle(
    IPC.getPrivateHosts,
    trusted((): DesktopPrivateHosts => ctx.privateHosts.get()),
  );
  ipcMain.handle(
    IPC.setPrivateHosts,
    trusted((entries: unknown): SavePrivateHostsResult => ctx.privateHosts.set(entries)),
  );
  ipcMain.handle(
    IPC.openSignIn,
    trusted(async (url: unknown, remoteBaseUrl: unknown) => {
      const opened =
        typeof url === 'string' &&
        typeof remoteBaseUrl === 'string' &&
        openExternalFor(url, { for: 'sign-in', remoteBaseUrl }, ctx.log);
      if (!opened) throw new Error('only a sync sign-in’s authorization URL on the remote signed in to opens');
    }),
  );
}
