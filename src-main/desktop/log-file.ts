/**
 * The desktop app's log file, the one the shell page and the Help menu point to: the shell's own messages and
 * everything the server host writes (its stdout and stderr are piped here), one line each, prefixed with the time
 * and where it came from. A packaged app has no terminal, so without this a crash of the server would leave no
 * trace. Bounded: past `maxBytes` the file moves to `<name>.1` (the previous `.1` is dropped) and a new one starts.
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOG_FILE_NAME = 'finops-desk.log';

export class LogFile {
  private size: number;

  constructor(
    readonly file: string,
    private readonly maxBytes = 5 * 1024 * 1024,
    private readonly now: () => Date = () => new Date(),
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  }

  write(source: 'shell' | 'server', text: string): void {
    const stamp = this.now().toISOString();
    const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
    const chunk = lines.map((l) => `${stamp} [${source}] ${l}\n`).join('');
    const bytes = Buffer.byteLength(chunk);
    try {
      if (this.size + bytes > this.maxBytes && this.size > 0) this.rotate();
      fs.appendFileSync(this.file, chunk);
      this.size += bytes;
    } catch {
      // A full disk or a removed folder must not take the app down with it; the message is lost.
    }
  }

  /** Appends a child's output line by line (a line split across chunks is joined first). */
  pipe(stream: NodeJS.ReadableStream | null | undefined, source: 'server'): void {
    if (!stream) return;
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string | Buffer) => {
      const text = pending + chunk;
      const end = text.lastIndexOf('\n');
      pending = end === -1 ? text : text.slice(end + 1);
      if (end !== -1) this.write(source, text.slice(0, end));
    });
    stream.on('end', () => {
      if (pending) this.write(source, pending);
      pending = '';
    });
  }

  private rotate(): void {
    fs.rmSync(`${this.file}.1`, { force: true });
    fs.renameSync(this.file, `${this.file}.1`);
    this.size = 0;
  }
}
