import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
export const FINOPS_BIN = path.join(ROOT, 'bin', 'finops');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `finops …` through the real launcher, as a user would. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(FINOPS_BIN, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface ServeHandle {
  url: string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  output(): string;
}

/** Starts `finops serve` on a free port (another checkout's launcher with `bin`) and resolves once it prints its URL. */
export function startServe(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  { bin = FINOPS_BIN, cwd }: { bin?: string; cwd?: string } = {},
): Promise<ServeHandle> {
  const child = spawn(bin, ['serve', '--port', '0', ...args], { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/[^\s]+:\d+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        resolve({
          url: match[1],
          output: () => out,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
}
