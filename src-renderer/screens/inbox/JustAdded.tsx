/**
 * Receipts added during this visit that have left the list's tab (issue 36): a receipt uploaded to "Waiting" is read
 * and matched within seconds, and vanished from under the person's eyes. Each stays named here with where it went
 * (matched to which transaction, no match, put aside), a link to its page, until the person leaves the inbox.
 */
import { useTranslation } from 'react-i18next';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import { AppLink } from '../../components/AppLink';
import { useRecord } from '../../data/use-read';
import { receiptName } from './inbox-view';

export function JustAdded({ ids, shown }: { ids: readonly string[]; shown: ReadonlySet<string> }) {
  const { t } = useTranslation('inbox');
  const gone = ids.filter((id) => !shown.has(id));
  if (gone.length === 0) return null;
  return (
    <section className="card just-added" aria-labelledby="just-added-title" data-testid="inbox-just-added">
      <h2 id="just-added-title">{t('justAdded.title')}</h2>
      <ul className="match-list">
        {gone.map((id) => (
          <JustAddedRow key={id} id={id} />
        ))}
      </ul>
    </section>
  );
}

function JustAddedRow({ id }: { id: string }) {
  const { t } = useTranslation('inbox');
  const item = useRecord(inboxRoutes.get, { id });
  const i = item.data;
  if (!i || i.status === 'deleted') return null;
  return (
    <li className="match-row" data-inbox-id={id} data-status={i.status}>
      <div className="grow">
        <div className="cell-name">{receiptName(i)}</div>
        <div className="faint small">
          {i.transaction ? t('justAdded.matched', { name: i.transaction.name }) : t(`status.${i.status}`)}
        </div>
      </div>
      <AppLink to={`/inbox/${id}`} className="btn small">
        {t('justAdded.open')}
      </AppLink>
    </li>
  );
}
