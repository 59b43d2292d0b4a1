/** The bar under a list: how much is shown (announced as it changes) and, for a paged list, "Load more". */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The paging of a list, as useCursorList gives it. */
export interface MorePages {
  hasNextPage: boolean;
  isLoadingMore: boolean;
  loadMore(): void;
}

export function TableFooter(props: { status: ReactNode; more?: MorePages; children?: ReactNode }) {
  const { more } = props;
  const { t } = useTranslation();
  return (
    <div className="table-footer">
      <span aria-live="polite">{props.status}</span>
      {more?.hasNextPage ? (
        <button type="button" className="btn" onClick={more.loadMore} disabled={more.isLoadingMore}>
          {more.isLoadingMore ? t('loading') : t('loadMore')}
        </button>
      ) : null}
      {props.children}
    </div>
  );
}
