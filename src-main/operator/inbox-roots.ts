import fs from 'node:fs';
import path from 'node:path';
import { operatorSettings } from './settings';

/**
 * Whether a team may have its receipts watched in a folder (docs/decisions/0176-operator-versus-team.md): the
 * folder, with every link in its path followed, must lie under a root the operator named at start
 * (`finops serve --inbox-root`, `$FINOPS_INBOX_ROOTS`; the desktop app: anywhere its user picks), and never inside
 * the data dir or around it (its `files/` shards hold every team's documents). Checked when the folder is set and
 * again at every look, so a folder set before, or a link changed since, reads nothing it may not.
 */
export function watchedFolderProblem(folder: string, dataDir: string): string | undefined {
  let real: string;
  try {
    real = fs.realpathSync(folder);
  } catch {
    return `${folder} is not a folder this server can read`;
  }
  const data = realOr(dataDir);
  if (within(real, data) || within(data, real)) return `${folder} is in (or holds) this server's data folder`;
  const roots = operatorSettings().inboxRoots;
  if (roots === 'any') return undefined;
  if (roots.length === 0) {
    return 'this server watches no folders: its operator names the folders teams may use at start (finops serve --inbox-root DIR)';
  }
  if (!roots.some((root) => within(real, realOr(root)))) {
    return `${folder} is not under a folder this server's operator allows (${roots.join(', ')})`;
  }
  return undefined;
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Whether `inner` is `outer` or below it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
