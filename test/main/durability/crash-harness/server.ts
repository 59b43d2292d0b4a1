import { type ServeHandle, startServe } from '../../../helpers/cli';

/** `finops serve` as the harness runs it: no rate limit in the way, the SMTP sink on loopback allowed. */
export function serveHarness(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServeHandle> {
  return startServe(['--data-dir', dataDir, '--rate-limit', '1000000000', '--allow-private-hosts', '127.0.0.1'], env);
}
