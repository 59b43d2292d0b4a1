/**
 * Sync: connect the team to a remote (address, API key or OAuth sign-in, a connection test), its status with live progress and the
 * last error, an offline warning, "sync now", and the conflicts with both values side by side and a one-click
 * choice (docs/decisions/0145-sync-screen.md). Changing anything is for an owner of the team; others see the state.
 */
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { ErrorBanner } from '../../components/ui';
import { ConflictsSection } from './ConflictsSection';
import { ConnectForm } from './ConnectForm';
import { useOAuthReturn } from './OAuthSignIn';
import { StatusPanel } from './StatusPanel';
import { useSyncStatus } from './use-sync-status';

export function SyncScreen() {
  const { t } = useTranslation('sync');
  const status = useSyncStatus();
  const finishing = useOAuthReturn();
  const s = status.data;
  return (
    <div className="page sync-page">
      <PageHeader namespace="sync" />
      {finishing ? (
        <div className="banner info" role="status">
          <div className="grow">{t('oauth.finishing')}</div>
        </div>
      ) : null}
      {status.error ? <ErrorBanner error={status.error} onRetry={() => void status.refetch()} /> : null}
      {s && !s.canManage ? (
        <div className="banner info">
          <div className="grow">{t('ownerOnly')}</div>
        </div>
      ) : null}
      {!s ? (
        status.isPending ? (
          <div className="panel-skeleton" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <span key={i} className="bone" />
            ))}
          </div>
        ) : null
      ) : s.remote ? (
        <>
          <StatusPanel status={s} remote={s.remote} />
          <ConflictsSection canManage={s.canManage} openCount={s.openConflicts} />
        </>
      ) : (
        <ConnectForm status={s} />
      )}
    </div>
  );
}
