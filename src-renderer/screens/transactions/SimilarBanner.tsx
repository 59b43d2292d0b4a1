/** The offer to categorise the similar transactions too, shown above the grid until applied or dismissed. */
import { useTranslation } from 'react-i18next';
import type { SimilarOffer } from './SimilarDialog';

export function SimilarBanner(props: { offer: SimilarOffer; onShow: () => void; onDismiss: () => void }) {
  const { t } = useTranslation('transactions');
  const { offer } = props;
  const count = offer.ids.length;
  return (
    <div className="banner info suggestion" role="status">
      <div className="grow">
        <strong>{t('similar.banner', { count, from: offer.source.counterpartyName ?? offer.source.name })}</strong>
        <small>{t('similar.bannerAsk', { name: offer.categoryName })}</small>
      </div>
      <button type="button" className="btn primary" onClick={props.onShow}>
        {t('similar.applyTo', { count })} <kbd>A</kbd>
      </button>
      <button type="button" className="btn ghost" onClick={props.onDismiss}>
        {t('similar.dismiss')}
      </button>
    </div>
  );
}
