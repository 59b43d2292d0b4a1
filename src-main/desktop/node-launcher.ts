/**
 * `LaunchServerChild` over Node's child_process.fork: the server host in a plain Node process. The desktop app
 * uses Electron's utility process instead (src-main/electron/utility-launcher.ts); this one runs the same host
 * where Electron cannot (tests, CI), with the TypeScript sources through tsx.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { LaunchServerChild, ServerChild } from './supervisor';

export const SERVER_HOST_ENTRY = path.join(__dirname, '..', 'server-host', 'entry.ts');

export function nodeLauncher(
  entry = SERVER_HOST_ENTRY,
  options: { execArgv?: string[]; env?: NodeJS.ProcessEnv; onSpawn?: (pid: number | undefined) => void } = {},
): LaunchServerChild {
  return (): ServerChild => {
    const child = fork(entry, [], {
      execArgv: options.execArgv ?? ['--disable-warning=ExperimentalWarning', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: options.env ?? process.env,
    });
    options.onSpawn?.(child.pid);
    return {
      send: (message) => {
        if (child.connected) child.send(message);
      },
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.once('exit', (code) => listener(code)),
      kill: () => void child.kill('SIGKILL'),
    };
  };
}
