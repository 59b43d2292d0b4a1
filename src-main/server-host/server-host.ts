/**
 * The server host: what runs inside the desktop app's utility process (and inside a plain Node child in tests).
 * It waits for one `start` request, opens the data dir, makes sure the desktop key is valid, serves the v1 API and
 * the renderer on 127.0.0.1 (answering only its own Host: server/own-host.ts) with the background work — sync
 * rounds included, their credentials asked of the shell (secret-relay.ts) — and answers `ready` (or `failed`). Until
 * then it says what opening the database is doing (`progress`: which migration, step n of m), which keeps the shell
 * waiting however long a migration of a large database takes.
 * On `stop`, or when the parent goes away, it closes the server cleanly and exits. The private hosts the app's user
 * allows (private-hosts.ts) come with `start` and again, changed, in `operator-settings`: applied at once, so the
 * next outbound connection is judged by them (no restart).
 *
 * The parent channel is an interface because Electron's utility process (`process.parentPort`, messages wrapped in
 * `{data}`) and Node's fork (`process.send` / `'message'`) differ; `detectParentChannel` picks the right one.
 */

import { ensureDesktopKey } from '../desktop/desktop-key';
import { listenOnPreferredPort } from '../desktop/preferred-port';
import { allowanceInForce, usablePrivateHosts } from '../desktop/private-hosts';
import { type HostEvent, isHostRequest, type ProgressEvent, type StartRequest } from '../desktop/protocol';
import { relayedSecretStore, type SecretRelay } from '../desktop/secret-relay';
import { configureOperator } from '../operator/settings';
import { backgroundOf } from '../runtime/background';
import { describeOpenEvent } from '../runtime/data-dir';
import { startServer } from '../server/start';
import { DatabaseCorrupt, DatabaseTooNew, type Db, type OpenEvent } from '../store/db';
import { enabledRemotes } from '../store/sync/remotes';

export interface ParentChannel {
  send(event: HostEvent): void;
  onMessage(listener: (message: unknown) => void): void;
}

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

export function detectParentChannel(proc: NodeJS.Process = process): ParentChannel {
  const parentPort = (proc as NodeJS.Process & { parentPort?: ElectronParentPort }).parentPort;
  if (parentPort) {
    return {
      send: (event) => parentPort.postMessage(event),
      onMessage: (listener) => parentPort.on('message', (e) => listener(e.data)),
    };
  }
  if (proc.send) {
    return {
      send: (event) => proc.send?.(event),
      onMessage: (listener) => proc.on('message', listener),
    };
  }
  throw new Error('the server host must be started by the desktop shell (no parent channel)');
}

async function listen(request: StartRequest, secrets: SecretRelay, onOpenEvent: (event: OpenEvent) => void) {
  const options = {
    dataDir: request.dataDir,
    host: '127.0.0.1',
    webRoot: request.webRoot ?? undefined,
    logLevel: 'warn' as const,
    ownHostOnly: true,
    sync: { secretStore: secrets.store },
    onOpenEvent,
  };
  // The previous port was taken meanwhile, or is one Windows reserves: another port (preferred-port.ts).
  return listenOnPreferredPort(request.port, (port) => startServer({ ...options, port }));
}

/** A credential for this remote was stored or removed: its teams' rounds run now instead of waiting for a person. */
function syncTeamsOf(db: Db, baseUrl: string): void {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return;
  }
  const scheduler = backgroundOf(db)?.sync;
  for (const remote of enabledRemotes(db)) {
    if (new URL(remote.baseUrl).origin === origin) scheduler?.syncNow(remote.teamId);
  }
}

function progressOf(event: OpenEvent): ProgressEvent {
  const message = describeOpenEvent(event) ?? 'checking the database';
  if (event.type === 'backup') return { type: 'progress', phase: 'backup', message, path: event.path };
  if (event.type === 'migration') {
    const { version, name } = event;
    return { type: 'progress', phase: 'migration', message, step: event.index + 1, steps: event.total, version, name };
  }
  return { type: 'progress', phase: event.type, message };
}

/**
 * The app's own entries and the environment's, as the operator's allowance of this process. The shell checked them;
 * an entry that still would not parse is left out, since one bad entry would refuse every outbound request.
 */
function allowPrivateHosts(saved: unknown, env: NodeJS.ProcessEnv): void {
  const { entries } = usablePrivateHosts(Array.isArray(saved) ? saved : []);
  configureOperator({ allowPrivateHosts: allowanceInForce(entries, env) });
}

export function runServerHost(
  channel: ParentChannel,
  exit: (code: number) => void = (code) => process.exit(code),
  env: NodeJS.ProcessEnv = process.env,
): void {
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  let started = false;
  let secrets: SecretRelay | null = null;
  const shutdown = async () => {
    try {
      await server?.close();
      exit(0);
    } catch {
      exit(1);
    }
  };
  channel.onMessage(async (message) => {
    if (!isHostRequest(message)) return;
    if (message.type === 'stop') return void shutdown();
    if (message.type === 'secret-reply') return secrets?.onReply(message);
    if (message.type === 'credential-changed') return server ? syncTeamsOf(server.db, message.baseUrl) : undefined;
    if (message.type === 'operator-settings') return allowPrivateHosts(message.allowPrivateHosts, env);
    if (started) return;
    started = true;
    secrets = relayedSecretStore((request) => channel.send(request), message.secretStorage);
    // The desktop app's user is its operator (docs/decisions/0176): a folder they pick is watched wherever it is (the
    // data dir excepted); private addresses stay refused unless they allowed them in Settings or
    // $FINOPS_ALLOW_PRIVATE_HOSTS does (0191). Before anything can reach out.
    configureOperator({ inboxRoots: 'any' });
    allowPrivateHosts(message.allowPrivateHosts, env);
    try {
      // Said before the database is opened: the backup of one too large to check comes before any OpenEvent.
      channel.send({ type: 'progress', phase: 'opening', message: 'opening the database' });
      const listening = listen(message, secrets, (event) => channel.send(progressOf(event)));
      // startServer opens the database before its first await, so it is open now: what is left (building the app,
      // listening) can be timed as usual (the supervisor test pins this order).
      channel.send({ type: 'progress', phase: 'listening', message: 'starting the server' });
      server = await listening;
      const { key, created, teamId } = ensureDesktopKey(server.db, message.apiKey);
      channel.send({ type: 'ready', url: server.url, apiKey: key, keyCreated: created, teamId });
    } catch (err) {
      channel.send({
        type: 'failed',
        message: err instanceof Error ? err.message : String(err),
        retryable: !(err instanceof DatabaseTooNew || err instanceof DatabaseCorrupt),
      });
    }
  });
  process.once('SIGTERM', () => void shutdown());
  process.once('disconnect', () => void shutdown());
}
