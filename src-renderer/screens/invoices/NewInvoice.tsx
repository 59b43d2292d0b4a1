/**
 * A new invoice, in a drawer: written from line items (the totals shown as they will be, by the server's rule), or
 * drafted from a tracker project's unbilled time (docs/decisions/0077). Line items are created as a draft or sent
 * at once; time becomes a draft to check before sending. Esc closes, Ctrl/⌘+Enter creates the draft. A draft is
 * edited in the same form (EditInvoice).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Customer } from '../../../src-shared/contract/customers';
import type { Invoice } from '../../../src-shared/contract/invoices';
import { Drawer } from '../../components/Drawer';
import { FromTrackedTime } from './FromTrackedTime';
import { InvoiceForm } from './InvoiceForm';

type Mode = 'lines' | 'time';

export function NewInvoice(props: {
  onClose: () => void;
  onCreated: (invoice: Invoice) => void;
  /** Open on tracked time, with this project chosen (from the Time screen). */
  projectId?: string;
  /** Bill this customer (from the customer's page). */
  customer?: Customer;
}) {
  const { t } = useTranslation('invoices');
  const [mode, setMode] = useState<Mode>(props.projectId ? 'time' : 'lines');
  const [busy, setBusy] = useState(false);
  return (
    <Drawer title={t('form.title')} onClose={props.onClose} busy={busy} className="wide">
      <div className="drawer-mode">
        <fieldset className="segmented-field">
          <legend className="sr-only">{t('form.from')}</legend>
          <div className="segmented">
            {(['lines', 'time'] as const).map((m) => (
              <label key={m} className="segment">
                <input type="radio" name="invoice-from" value={m} checked={mode === m} onChange={() => setMode(m)} />
                <span>{t(`form.modes.${m}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {mode === 'lines' ? (
        <InvoiceForm
          busy={busy}
          setBusy={setBusy}
          onClose={props.onClose}
          onCreated={props.onCreated}
          customer={props.customer ?? null}
        />
      ) : (
        <FromTrackedTime
          busy={busy}
          setBusy={setBusy}
          onClose={props.onClose}
          onCreated={props.onCreated}
          projectId={props.projectId}
        />
      )}
    </Drawer>
  );
}

/** A draft edited: the same form, filled with the draft; saving changes it (PATCH), nothing is issued. */
export function EditInvoice(props: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation('invoices');
  const [busy, setBusy] = useState(false);
  return (
    <Drawer
      title={t('form.editTitle', { number: props.invoice.invoiceNumber ?? t('numberPending') })}
      onClose={props.onClose}
      busy={busy}
      className="wide"
    >
      <InvoiceForm
        busy={busy}
        setBusy={setBusy}
        onClose={props.onClose}
        onCreated={() => {}}
        customer={null}
        editing={props.invoice}
      />
    </Drawer>
  );
}
