/**
 * The app frame's word on sync, shown only when there is something to know: the team's remote could not be reached
 * in the last round (offline), its key was refused, a round is running, or conflicts wait for a choice. Each links
 * to the Sync screen. Shares the status query (and its polling) with the screen.
 */
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouter } from '../../lib/router';
import { useSyncStatus } from './use-sync-status';

/** The run pills' colours: failed, waiting, running. */
const PILL = { bad: 'failed', warn: 'waiting', info: 'running' } as const;

export function SyncIndicator({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('sync');
  const status = useSyncStatus(enabled).data;
  const navigate = useRouter((r) => r.navigate);
  const remote = status?.remote;
  if (!status || !remote) return null;
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate('/sync');
  };
  const items: { key: string; text: string; tone: keyof typeof PILL; title?: string }[] = [];
  if (!status.online)
    items.push({ key: 'offline', text: t('indicator.offline'), tone: 'bad', title: t('indicator.offlineTitle') });
  else if (remote.state === 'credentials_expired') items.push({ key: 'key', text: t('indicator.keyRefused'), tone: 'bad' });
  else if (remote.state === 'running') items.push({ key: 'running', text: t('indicator.running'), tone: 'info' });
  if (status.openConflicts > 0)
    items.push({ key: 'conflicts', text: t('indicator.conflicts', { count: status.openConflicts }), tone: 'warn' });
  if (items.length === 0) return null;
  return (
    <div className="sync-indicator" role="status">
      {items.map((i) => (
        <a key={i.key} href="/sync" className={`sync-flag run-pill ${PILL[i.tone]}`} title={i.title} onClick={open}>
          {i.tone === 'bad' ? <span className="dot bad" aria-hidden="true" /> : null}
          {i.text}
        </a>
      ))}
    </div>
  );
}
