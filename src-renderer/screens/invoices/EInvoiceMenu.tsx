/**
 * The invoice's e-invoices to download, one per format (the hybrid ZUGFeRD/Factur-X PDFs, XRechnung in UBL and CII,
 * Peppol BIS), and the credit note in each format once the invoice is refunded. A format the invoice fails is not
 * made: the server answers 422 with the rules, and the page checks that format (`onRefused`). A menu button:
 * arrows move, Esc or a click elsewhere closes.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { E_INVOICE_FORMATS, type EInvoiceFormat, FORMAT_INFO } from '../../../src-shared/domain/einvoice/model';
import { downloadFile } from '../../lib/download';
import { useDismiss } from '../../lib/use-dismiss';
import { useToasts } from '../../stores/toasts';
import { eInvoiceFileName } from './einvoice-failures';

type DocumentKind = 'invoice' | 'credit-note';

export function EInvoiceMenu({
  invoice,
  onRefused,
}: {
  invoice: Invoice;
  /** A format the server would not make: its rules fail (the page checks it). */
  onRefused: (format: EInvoiceFormat) => void;
}) {
  const { t } = useTranslation('einvoice');
  const [open, setOpen] = useState(false);
  /** The format being made, by name. */
  const [busy, setBusy] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const toast = useToasts();
  useDismiss(open, () => setOpen(false), { panel: panelRef, button: buttonRef });
  // Focus moves into the menu as it opens, on its first item.
  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
  }, [open]);
  const kinds: DocumentKind[] = invoice.status === 'refunded' ? ['invoice', 'credit-note'] : ['invoice'];

  async function download(format: EInvoiceFormat, kind: DocumentKind) {
    setOpen(false);
    buttonRef.current?.focus();
    const name = t(`formats.${format}`);
    setBusy(name);
    try {
      const file = eInvoiceFileName(invoice.invoiceNumber ?? '', format, kind === 'credit-note');
      await downloadFile(invoiceRoutes.eInvoice, { params: { id: invoice.id }, query: { format, document: kind } }, file);
      toast.show(t('menu.saved', { file }));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422 && err.rules.length > 0) {
        onRefused(format);
        toast.show(t('menu.refused', { format: name, count: err.rules.length }), { ms: 6000 });
      } else toast.error(err, t('menu.failed'));
    } finally {
      setBusy(null);
    }
  }

  /** Up and down move through the items, round; Home and End go to the ends. */
  function onKeyDown(e: React.KeyboardEvent<HTMLDivElement>) {
    const items = [...(panelRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === 'ArrowDown'
        ? (at + 1) % items.length
        : e.key === 'ArrowUp'
          ? (at - 1 + items.length) % items.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : null;
    if (next === null) {
      if (e.key === 'Tab') setOpen(false);
      return;
    }
    e.preventDefault();
    items[next]?.focus();
  }

  return (
    <div className="einv-menu">
      <button
        ref={buttonRef}
        type="button"
        className="btn"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={busy !== null}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {busy ? t('menu.downloading', { format: busy }) : t('menu.button')}
        <span aria-hidden="true"> ▾</span>
      </button>
      {open ? (
        <div
          ref={panelRef}
          id={menuId}
          className="popover einv-menu-panel"
          role="menu"
          aria-label={t('menu.button')}
          tabIndex={-1}
          onKeyDown={onKeyDown}
        >
          {kinds.map((doc) => {
            const label = t(doc === 'invoice' ? 'menu.invoice' : 'menu.creditNote');
            return (
              // biome-ignore lint/a11y/useSemanticElements: a group of menu items (the ARIA menu pattern), not form fields
              <div key={doc} role="group" aria-label={label} className="einv-menu-group">
                <div className="einv-menu-heading" aria-hidden="true">
                  {label}
                </div>
                {E_INVOICE_FORMATS.map((format) => (
                  <button
                    key={format}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    className="einv-menu-item"
                    data-format={format}
                    data-document={doc}
                    onClick={() => void download(format, doc)}
                  >
                    <span>{t(`formats.${format}`)}</span>
                    <small className="faint">{t(`formatKinds.${FORMAT_INFO[format].container}`)}</small>
                  </button>
                ))}
              </div>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
