/**
 * The e-invoice format as a form field (docs/decisions/0160-e-invoices.md), the formats named by the `einvoice`
 * catalogue: on the customer form, in the team's e-invoice settings, and where an invoice's check is run. The first
 * option, when `emptyLabel` is given, is no format ("": the team's default, or none).
 */
import { useTranslation } from 'react-i18next';
import { E_INVOICE_FORMATS } from '../../src-shared/domain/einvoice/model';
import { Field } from './ui';

export function EInvoiceFormatField(props: {
  label: string;
  name?: string;
  value: string;
  onChange: (value: string) => void;
  emptyLabel?: string;
  hint?: string;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation('einvoice');
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name={props.name}
          className="select"
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          disabled={props.disabled}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        >
          {props.emptyLabel !== undefined ? <option value="">{props.emptyLabel}</option> : null}
          {E_INVOICE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {t(`formats.${f}`)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
