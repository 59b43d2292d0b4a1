/**
 * Receipts dropped on the transactions screen: on a row of the list, or anywhere on a transaction's open panel (both
 * carry `data-transaction-id`), a file is attached to that transaction. The element under the file is marked while
 * it is dragged; a file let go anywhere else is refused rather than opened by the browser in place of the app.
 * Listens on the window, so the list's rows need no handlers of their own (its frame budget stays as it was).
 */
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Progress } from '../../components/Progress';
import { useReceiptUpload } from './use-receipt-upload';

const TARGET = '[data-transaction-id]';

/** `rows`: the transactions on screen, to name the one a file lands on in the toast. */
export const ReceiptDrop = memo(function ReceiptDrop(props: { rows: readonly { id: string; name: string }[] }) {
  const { t } = useTranslation('inbox');
  const upload = useReceiptUpload();
  const latest = useRef({ props, send: upload.send, t });
  latest.current = { props, send: upload.send, t };

  useEffect(() => {
    let marked: Element | null = null;
    const mark = (el: Element | null) => {
      if (marked === el) return;
      marked?.classList.remove('drop-target');
      el?.classList.add('drop-target');
      marked = el;
    };
    const withFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const targetOf = (e: DragEvent) => (e.target instanceof Element ? e.target.closest(TARGET) : null);
    const over = (e: DragEvent) => {
      if (!withFiles(e)) return;
      e.preventDefault();
      const el = targetOf(e);
      mark(el);
      if (e.dataTransfer) e.dataTransfer.dropEffect = el ? 'copy' : 'none';
    };
    const leave = (e: DragEvent) => {
      if (!e.relatedTarget) mark(null);
    };
    const drop = (e: DragEvent) => {
      if (!withFiles(e)) return;
      const el = targetOf(e);
      mark(null);
      // A drop zone inside (the panel's) took it already.
      if (e.defaultPrevented) return;
      e.preventDefault();
      const id = el?.getAttribute('data-transaction-id');
      if (!id || !e.dataTransfer) return;
      const { props, send, t } = latest.current;
      const name = props.rows.find((r) => r.id === id)?.name ?? t('attach.thisTransaction');
      for (const file of e.dataTransfer.files) void send(file, { id, name });
    };
    const end = () => mark(null);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    window.addEventListener('dragend', end);
    return () => {
      mark(null);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      window.removeEventListener('dragend', end);
    };
  }, []);

  return upload.uploads.length ? (
    <div className="receipt-drop-status" role="status">
      {upload.uploads.map((u) => (
        <Progress
          key={u.key}
          label={t(u.share === null ? 'attach.sending' : 'upload.reading', { file: u.name })}
          share={u.share}
        />
      ))}
    </div>
  ) : null;
});
