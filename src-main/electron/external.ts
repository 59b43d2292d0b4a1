/**
 * The shell's one way to the OS browser and mail program: every link is judged by what it is for
 * (desktop/external-links.ts) and a refusal is logged.
 */
import { shell } from 'electron';
import { type ExternalLinkPurpose, judgeExternalLink, refusalLogLine } from '../desktop/external-links';

/** True when the link was handed to the OS. */
export function openExternalFor(url: string, purpose: ExternalLinkPurpose, log: (message: string) => void): boolean {
  const verdict = judgeExternalLink(url, purpose);
  const refusal = refusalLogLine(url, purpose, verdict);
  if (refusal) {
    log(refusal);
    return false;
  }
  shell.openExternal(url).catch((err: Error) => log(`the OS did not open ${purpose.for} link: ${err.message}`));
  return true;
}
