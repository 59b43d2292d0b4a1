import { backgroundOf } from '../../src-main/runtime/background';
import type { Db } from '../../src-main/store/db';

/**
 * Waits until the server's document runner has extracted and matched everything uploaded so far (no stored file
 * pending or processing, no inbox item new, processing or analyzing), kicking it between checks.
 */
export async function documentsSettled(db: Db, timeoutMs = 60_000): Promise<void> {
  const runner = backgroundOf(db)?.documents;
  if (!runner) throw new Error('no document runner serves this database');
  const started = Date.now();
  for (;;) {
    runner.kick();
    await runner.idle();
    const busy = db
      .prepare(
        `SELECT (SELECT count(*) FROM stored_files WHERE extraction_status IN ('pending', 'processing')
                   AND EXISTS (SELECT 1 FROM stored_file_refs r WHERE r.sha256 = stored_files.sha256))
              + (SELECT count(*) FROM inbox_items WHERE status IN ('new', 'processing', 'analyzing'))`,
      )
      .pluck()
      .get() as number;
    if (busy === 0) return;
    if (Date.now() - started > timeoutMs) throw new Error(`documents not settled after ${timeoutMs} ms (${busy} busy)`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
