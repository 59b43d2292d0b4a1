/** The review-state tabs over the grid, each with how many transactions it holds under the other filters. */
import { formatNumber } from '../../lib/format';
import { type Counts, TABS, type Tab, tabCount } from './filters';

const TAB_LABELS: Record<Tab, string> = {
  all: 'All',
  to_review: 'To review',
  needs_receipt: 'Needs receipt',
  ready: 'Ready',
  exported: 'Exported',
  excluded: 'Excluded',
};

export function StateTabs(props: { tab: Tab; counts: Counts | undefined; onChange: (tab: Tab) => void }) {
  const { counts } = props;
  return (
    <div className="tabs state-tabs" role="tablist" aria-label="Review states">
      {TABS.map((t) => (
        <button
          key={t}
          type="button"
          role="tab"
          className="tab"
          aria-selected={props.tab === t}
          onClick={() => props.onChange(t)}
        >
          {TAB_LABELS[t]} <span className="tab-count">{counts ? formatNumber(tabCount(t, counts)) : '…'}</span>
        </button>
      ))}
    </div>
  );
}
