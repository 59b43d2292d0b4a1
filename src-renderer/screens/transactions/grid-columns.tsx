/** The review grid's columns after the selection checkbox: what each shows of a review row. */
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import type { ReviewState } from '../../../src-shared/domain/review-state';
import type { Column } from '../../components/table/columns';
import { formatAmount, formatDate } from '../../lib/format';

/** A review state's tone in the app's pill (styles.css `.pill`); exported is neutral. */
export const REVIEW_TONE: Record<ReviewState, 'info' | 'warn' | 'ok' | 'muted' | ''> = {
  to_review: 'info',
  needs_receipt: 'warn',
  ready: 'ok',
  exported: '',
  excluded: 'muted',
};

type T = TFunction<'transactions'>;

/** The second line of a row: the counterparty or description when it says more than the name. */
function subline(r: ReviewRow, t: T): string {
  for (const text of [r.counterpartyName, r.description])
    if (text && text.trim().toLowerCase() !== r.name.trim().toLowerCase()) return text;
  return r.manual ? t('addedByHand') : '';
}

/** A flag icon with its meaning for screen readers and in its tooltip. */
/**
 * A split drawn, not a character: the fork sign (U+2442) has no glyph in the system fonts the app uses, and showed
 * as an empty box.
 */
const SPLIT_ICON = (
  <svg width="12" height="12" viewBox="0 0 16 16" fill="none" className="flag-icon" aria-hidden="true">
    <path
      d="M3 2v4.5c0 2 1.5 3 5 3.5M13 2v4.5c0 2-1.5 3-5 3.5M8 10v4"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
    />
  </svg>
);

function Flag(props: { title: string; label: string; icon: ReactNode }) {
  return (
    <span title={props.title}>
      <span className="sr-only">{props.label}</span>
      <span aria-hidden="true">{props.icon}</span>
    </span>
  );
}

export const gridColumns = (t: T): readonly Column<ReviewRow>[] => [
  { id: 'date', header: t('columns.date'), className: 'date', cell: (r) => formatDate(r.date) },
  {
    id: 'description',
    header: t('columns.description'),
    className: 'c-desc',
    cell: (r) => (
      <>
        <span className="cell-name" title={r.name}>
          {r.name}
        </span>
        <span className="cell-sub">{subline(r, t)}</span>
      </>
    ),
  },
  {
    id: 'account',
    header: t('columns.account'),
    className: 'c-account',
    title: (r) => r.accountName,
    cell: (r) => r.accountName,
  },
  {
    id: 'category',
    header: t('columns.category'),
    className: 'c-cat',
    cell: (r) =>
      r.category ? (
        <>
          <span className="cat-dot" style={{ background: r.category.color }} aria-hidden="true" />
          <span className="ellipsis" title={r.category.name}>
            {r.category.name}
          </span>
        </>
      ) : r.splits ? (
        <span className="faint">{t('splitIn', { count: r.splits })}</span>
      ) : (
        <span className="faint">{t('uncategorised')}</span>
      ),
  },
  {
    id: 'tags',
    header: t('columns.tags'),
    className: 'c-tags',
    cell: (r) => (
      <>
        {r.tags.slice(0, 2).map((tag) => (
          <span key={tag.id} className="chip">
            {tag.name}
          </span>
        ))}
        {r.tags.length > 2 ? <span className="chip more">+{r.tags.length - 2}</span> : null}
      </>
    ),
  },
  {
    id: 'amount',
    header: t('columns.amount'),
    numeric: true,
    className: (r) => `money ${r.amount < 0 ? 'out' : 'in'}`,
    cell: (r) => formatAmount(r.amount, r.currency),
  },
  {
    id: 'state',
    header: t('columns.state'),
    cell: (r) => (
      <span className={`pill ${REVIEW_TONE[r.reviewState]}`} data-review-state={r.reviewState} title={t(`tabs.${r.reviewState}`)}>
        {t(`tabs.${r.reviewState}`)}
      </span>
    ),
  },
  {
    id: 'flags',
    header: t('columns.flags'),
    srOnlyHeader: true,
    className: 'c-flags',
    cell: (r) => (
      <>
        {r.attachments ? <Flag title={t('receipts', { count: r.attachments })} label={t('flags.receipt')} icon="📎" /> : null}
        {r.note ? <Flag title={r.note} label={t('flags.note')} icon="✎" /> : null}
        {r.splits ? <Flag title={t('splitIn', { count: r.splits })} label={t('flags.split')} icon={SPLIT_ICON} /> : null}
      </>
    ),
  },
];
