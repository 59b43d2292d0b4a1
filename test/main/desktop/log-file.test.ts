/** The app's log file: stamped lines from the shell and the server's piped output, bounded by rotation. */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LogFile } from '../../../src-main/desktop/log-file';
import { tmpDir } from '../../helpers/tmp';

const at = () => new Date('2026-11-22T10:00:00.000Z');

describe('LogFile', () => {
  it('writes one stamped line per line, from the shell and from piped output split across chunks', async () => {
    const file = path.join(tmpDir('finops-log-'), 'logs', 'finops-desk.log');
    const log = new LogFile(file, 1024 * 1024, at);
    log.write('shell', 'starting\nsecond line\n');
    const out = new PassThrough();
    log.pipe(out, 'server');
    out.write('listening on 127.0.0.1');
    out.write(':21001\nwarn: slow');
    out.end(' query');
    await new Promise((r) => out.on('end', r));
    expect(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)).toEqual([
      '2026-11-22T10:00:00.000Z [shell] starting',
      '2026-11-22T10:00:00.000Z [shell] second line',
      '2026-11-22T10:00:00.000Z [server] listening on 127.0.0.1:21001',
      '2026-11-22T10:00:00.000Z [server] warn: slow query',
    ]);
  });

  it('moves a full file to .1 and starts again, keeping one previous file', () => {
    const file = path.join(tmpDir('finops-log-'), 'finops-desk.log');
    const log = new LogFile(file, 200, at);
    for (let i = 0; i < 12; i++) log.write('shell', `message number ${i}`);
    expect(fs.statSync(file).size).toBeLessThanOrEqual(200);
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toContain('message number');
    expect(fs.readFileSync(file, 'utf8')).toContain('message number 11');
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['finops-desk.log', 'finops-desk.log.1']);
    // A new LogFile on the same file continues its size count.
    const again = new LogFile(file, 200, at);
    again.write('shell', 'x'.repeat(150));
    expect(fs.readFileSync(file, 'utf8')).toBe(`2026-11-22T10:00:00.000Z [shell] ${'x'.repeat(150)}\n`);
  });
});
