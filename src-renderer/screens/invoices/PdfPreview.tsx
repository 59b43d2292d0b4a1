/**
 * The invoice as its customer gets it: the server's PDF (docs/decisions/0078) drawn page by page, and a download of
 * the same file. The PDF is fetched again only when the invoice changed.
 */
import { useTranslation } from 'react-i18next';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { useObjectUrl, usePdfPages } from '../../components/pdf/use-pdf-pages';
import { ErrorBanner } from '../../components/ui';
import { useFile } from '../../data/use-file';

export function PdfPreview({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation('invoices');
  const file = useFile(invoiceRoutes.pdf, { id: invoice.id }, invoice.updatedAt);
  const url = useObjectUrl(file.data);
  const { hostRef, state } = usePdfPages(file.data, (page, pages) =>
    t('pdf.page', { number: invoice.invoiceNumber, page, pages }),
  );

  return (
    <section className="card inv-pdf" aria-labelledby="inv-pdf-title" aria-busy={state === 'drawing'}>
      <div className="inv-pdf-head">
        <h2 id="inv-pdf-title">{t('pdf.title')}</h2>
        {url ? (
          <a className="btn small" href={url} download={`${invoice.invoiceNumber ?? 'invoice'}.pdf`}>
            {t('pdf.download')}
          </a>
        ) : null}
      </div>
      {file.error ? <ErrorBanner error={file.error} onRetry={() => void file.refetch()} /> : null}
      {state instanceof Error ? (
        <div className="banner error" role="alert">
          <div className="grow">
            <strong>{t('pdf.cannotShow')}</strong>
            <small lang="en">{state.message}</small>
          </div>
        </div>
      ) : null}
      {state === 'drawing' && !file.error ? <div className="pdf-skeleton skeleton-block" /> : null}
      <div ref={hostRef} className="pdf-pages" data-state={state instanceof Error ? 'error' : state} />
    </section>
  );
}
