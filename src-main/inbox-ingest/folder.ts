import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { machineNow } from '../clock';
import { MAX_FILE_BYTES } from '../documents/detect';
import { dataDirOf } from '../infra/blob-store';
import { watchedFolderProblem } from '../operator/inbox-roots';
import type { Db } from '../store/db';
import type { BlobStore } from '../store/files/stored-files';
import { ingestToInbox } from '../store/inbox/ingest';
import type { InboxSource } from '../store/inbox/sources';
import { type Intake, intakeFile, sortIntakes, TOO_LARGE } from './intake';

/**
 * One look at a team's watched folder (docs/decisions/0150-inbox-ingestion.md): every file directly in it that has
 * settled (not modified for `settleMs`, so one still being written is left for the next look) is taken in like an
 * upload, once per content whatever its name. Files stay where they are: the folder may be one a scanner app or a
 * cloud drive writes into. Hidden and partial files (`.name`, `*.tmp`, `*.part`, `*.crdownload`, `~…`) are ignored.
 */

export interface FolderLook {
  created: number;
  duplicates: number;
  skipped: number;
  /** Files seen that had not settled yet: look again soon. */
  unsettled: number;
}

const PARTIAL = /(^\.|^~|\.(tmp|part|partial|crdownload|download)$)/i;

export class FolderScanner {
  /** Files already taken in by this process, by team and path: their size and mtime (no re-reading each look). */
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly settleMs: number,
  ) {}

  async look(source: InboxSource<'folder'>, now = machineNow()): Promise<FolderLook> {
    const result: FolderLook = { created: 0, duplicates: 0, skipped: 0, unsettled: 0 };
    const dir = source.config.path;
    // Checked at every look: a folder set before the operator's roots, or a link changed since, reads nothing.
    const problem = watchedFolderProblem(dir, dataDirOf(this.db));
    if (problem) throw new Error(`the folder is not looked at: ${problem}`);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      throw new Error(`the folder ${dir} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    for (const entry of entries) {
      if (!entry.isFile() || PARTIAL.test(entry.name)) continue;
      const file = path.join(dir, entry.name);
      const key = `${source.teamId}\0${file}`;
      let stat: fs.Stats;
      try {
        stat = fs.statSync(file);
      } catch {
        continue; // gone since the listing
      }
      const signature = `${stat.size}:${stat.mtimeMs}`;
      if (this.seen.get(key) === signature) continue;
      if (now - stat.mtimeMs < this.settleMs) {
        result.unsettled++;
        continue;
      }
      const intake = await readIntake(file, entry.name, stat.size);
      if (!intake) continue;
      const { files, skipped } = sortIntakes([intake]);
      const r = ingestToInbox(this.db, source.teamId, { source: 'folder', files, skipped }, this.blobs);
      result.created += r.created.length;
      result.duplicates += r.duplicates.length;
      result.skipped += r.skipped.length;
      this.seen.set(key, signature);
    }
    return result;
  }
}

/** The file as an intake; a file too large is hashed as a stream, never read whole. Undefined when it vanished. */
async function readIntake(file: string, name: string, size: number): Promise<Intake | undefined> {
  try {
    if (size <= MAX_FILE_BYTES) return await intakeFile(fs.readFileSync(file), name);
    const hash = crypto.createHash('sha256');
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
    return { ok: false, skipped: { sha256: hash.digest('hex'), fileName: name, reason: TOO_LARGE } };
  } catch {
    return undefined;
  }
}
