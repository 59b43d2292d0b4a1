/** The offer to categorise the similar transactions too, shown above the grid until applied or dismissed. */
import { formatNumber } from '../../lib/format';
import type { SimilarOffer } from './SimilarDialog';

export function SimilarBanner(props: { offer: SimilarOffer; onShow: () => void; onDismiss: () => void }) {
  const { offer } = props;
  return (
    <div className="banner info suggestion" role="status">
      <div className="grow">
        <strong>
          {formatNumber(offer.ids.length)} similar from “{offer.source.counterpartyName ?? offer.source.name}” are uncategorised.
        </strong>
        <small>Categorise them as {offer.categoryName} too? You see every change before it is made.</small>
      </div>
      <button type="button" className="btn primary" onClick={props.onShow}>
        Apply to {formatNumber(offer.ids.length)} similar <kbd>A</kbd>
      </button>
      <button type="button" className="btn ghost" onClick={props.onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
