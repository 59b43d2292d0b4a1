import { spawn } from 'node:child_process';

/** A pid of this machine that ran and has ended (a holder that is gone, for lease tests). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((r) => child.once('exit', r));
  return pid;
}
