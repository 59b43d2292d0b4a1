/** `LaunchServerChild` for the app: the server host runs in an Electron utility process (never in main). */
import { utilityProcess } from 'electron';
import type { LaunchServerChild } from '../desktop/supervisor';

export function utilityProcessLauncher(entry: string, env: NodeJS.ProcessEnv = process.env): LaunchServerChild {
  return () => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Finops Desk server', stdio: 'inherit', env });
    return {
      send: (message) => child.postMessage(message),
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.on('exit', (code) => listener(code)),
      kill: () => void child.kill(),
    };
  };
}
