/**
 * A receipt's file shown in place: a picture as it is, a PDF drawn page by page (pdf.js, loaded only when needed),
 * with a download of the same file. HEIC pictures, which the browser cannot show, offer the download only.
 */
import { useTranslation } from 'react-i18next';
import { useObjectUrl, usePdfPages } from '../../components/pdf/use-pdf-pages';
import { ErrorBanner } from '../../components/ui';

export function FilePreview(props: {
  blob: Blob | undefined;
  error: Error | null;
  onRetry: () => void;
  fileName: string;
  /** The preview's accessible name ("Receipt from Café Central"). */
  label: string;
}) {
  const { t } = useTranslation('inbox');
  const { blob } = props;
  const kind = !blob ? null : blob.type === 'application/pdf' ? 'pdf' : /^image\/(png|jpeg)$/.test(blob.type) ? 'image' : 'other';
  const url = useObjectUrl(blob);
  const { hostRef, state } = usePdfPages(blob, (page, pages) => t('preview.page', { page, pages }), kind === 'pdf');

  return (
    <section className="file-preview" aria-label={props.label} aria-busy={!blob || (kind === 'pdf' && state === 'drawing')}>
      {props.error ? <ErrorBanner error={props.error} onRetry={props.onRetry} /> : null}
      {!blob && !props.error ? <div className="skeleton-block file-skeleton" /> : null}
      {kind === 'image' && url ? <img src={url} alt={props.label} /> : null}
      {kind === 'pdf' ? <div ref={hostRef} className="pdf-pages" data-state={state instanceof Error ? 'error' : state} /> : null}
      {kind === 'other' ? <p className="faint">{t('preview.cannotShow')}</p> : null}
      {state instanceof Error ? (
        <div className="banner error" role="alert">
          <div className="grow">
            <strong>{t('preview.cannotShow')}</strong>
            <small lang="en">{state.message}</small>
          </div>
        </div>
      ) : null}
      {url ? (
        <a className="btn small" href={url} download={props.fileName}>
          {t('preview.download')}
        </a>
      ) : null}
    </section>
  );
}
