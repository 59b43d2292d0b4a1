/** The review grid's columns after the selection checkbox: what each shows of a review row. */
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import type { Column } from '../../components/table/columns';
import { formatAmount, formatDate } from '../../lib/format';
import { STATE_LABELS } from './filters';

/** The second line of a row: the counterparty or description when it says more than the name. */
function subline(r: ReviewRow): string {
  for (const text of [r.counterpartyName, r.description])
    if (text && text.trim().toLowerCase() !== r.name.trim().toLowerCase()) return text;
  return r.manual ? 'Added by hand' : '';
}

/** A flag icon with its meaning for screen readers and in its tooltip. */
function Flag(props: { title: string; label: string; icon: string }) {
  return (
    <span title={props.title}>
      <span className="sr-only">{props.label}</span>
      <span aria-hidden="true">{props.icon}</span>
    </span>
  );
}

export const GRID_COLUMNS: readonly Column<ReviewRow>[] = [
  { id: 'date', header: 'Date', className: 'date', cell: (r) => formatDate(r.date) },
  {
    id: 'description',
    header: 'Description',
    className: 'c-desc',
    cell: (r) => (
      <>
        <span className="cell-name" title={r.name}>
          {r.name}
        </span>
        <span className="cell-sub">{subline(r)}</span>
      </>
    ),
  },
  { id: 'account', header: 'Account', className: 'c-account', title: (r) => r.accountName, cell: (r) => r.accountName },
  {
    id: 'category',
    header: 'Category',
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
        <span className="faint">Split in {r.splits}</span>
      ) : (
        <span className="faint">Uncategorised</span>
      ),
  },
  {
    id: 'tags',
    header: 'Tags',
    className: 'c-tags',
    cell: (r) => (
      <>
        {r.tags.slice(0, 2).map((t) => (
          <span key={t.id} className="chip">
            {t.name}
          </span>
        ))}
        {r.tags.length > 2 ? <span className="chip more">+{r.tags.length - 2}</span> : null}
      </>
    ),
  },
  {
    id: 'amount',
    header: 'Amount',
    numeric: true,
    className: (r) => `money ${r.amount < 0 ? 'out' : 'in'}`,
    cell: (r) => formatAmount(r.amount, r.currency),
  },
  {
    id: 'state',
    header: 'State',
    cell: (r) => <span className={`state-pill ${r.reviewState}`}>{STATE_LABELS[r.reviewState]}</span>,
  },
  {
    id: 'flags',
    header: 'Receipt, note, split',
    srOnlyHeader: true,
    className: 'c-flags',
    cell: (r) => (
      <>
        {r.attachments ? (
          <Flag title={`${r.attachments} receipt${r.attachments === 1 ? '' : 's'}`} label="Has a receipt" icon="📎" />
        ) : null}
        {r.note ? <Flag title={r.note} label="Has a note" icon="✎" /> : null}
        {r.splits ? <Flag title={`Split in ${r.splits}`} label="Split" icon="⑂" /> : null}
      </>
    ),
  },
];
