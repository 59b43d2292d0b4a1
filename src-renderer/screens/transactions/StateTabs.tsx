/** The review-state tabs over the grid, each with how many transactions it holds under the other filters. */
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { type Counts, TABS, type Tab, tabCount } from './filters';

export function StateTabs(props: { tab: Tab; counts: Counts | undefined; onChange: (tab: Tab) => void }) {
  const { t } = useTranslation('transactions');
  const { counts } = props;
  return (
    <div className="tabs state-tabs" role="tablist" aria-label={t('tabs.label')}>
      {TABS.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          className="tab"
          aria-selected={props.tab === tab}
          onClick={() => props.onChange(tab)}
        >
          {t(`tabs.${tab}`)} <span className="tab-count">{counts ? formatNumber(tabCount(tab, counts)) : '…'}</span>
        </button>
      ))}
    </div>
  );
}
