import { parentPort } from 'node:worker_threads';
import { installClockFromEnv } from '../clock';
import { JOBS, type JobName } from './jobs';

/**
 * A parser worker thread (docs/decisions/0170-parser-sandbox.md): runs one job at a time of the table in jobs.ts and
 * answers with its result or the error it threw (name and message: the caller shows the message). The worker reads
 * the process clock its parent runs on (docs/decisions/0019), so a parser asking for "now" agrees with the server.
 */
export interface JobRequest {
  id: number;
  job: JobName;
  input: unknown;
}

export type JobAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };

installClockFromEnv();

const port = parentPort;
if (!port) throw new Error('src-main/sandbox/worker.ts runs as a worker thread of the parser pool');

port.on('message', async ({ id, job, input }: JobRequest) => {
  let answer: JobAnswer;
  try {
    answer = { id, ok: true, value: await JOBS[job].run(input as never) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    answer = { id, ok: false, error: { name: e.name, message: e.message } };
  }
  port.postMessage(answer);
});
