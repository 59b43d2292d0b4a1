/** `LaunchServerChild` for the app: the server host runs in an Electron utility process (never in main). */
import { utilityProcess } from 'electron';
import type { LogFile } from '../desktop/log-file';
import type { LaunchServerChild } from '../desktop/supervisor';

export function utilityProcessLauncher(entry: string, log: LogFile, env: NodeJS.ProcessEnv = process.env): LaunchServerChild {
  return () => {
    // Its output goes to the app's log: a packaged app has no terminal to inherit.
    const child = utilityProcess.fork(entry, [], { serviceName: 'Finops Desk server', stdio: 'pipe', env });
    log.pipe(child.stdout, 'server');
    log.pipe(child.stderr, 'server');
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    return {
      // A message to a host that has exited has nowhere to go (the supervisor learns of the exit separately).
      send: (message) => {
        if (!exited) child.postMessage(message);
      },
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.on('exit', (code) => listener(code)),
      kill: () => void child.kill(),
    };
  };
}
