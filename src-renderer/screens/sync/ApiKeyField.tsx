/** The remote's API key, typed once: a password field that says where the server will keep it. */
import { useTranslation } from 'react-i18next';
import type { SyncStatusBody } from '../../../src-shared/contract/app-sync';
import { Field } from '../../components/ui';

export function ApiKeyField(props: {
  value: string;
  onChange: (value: string) => void;
  storage: SyncStatusBody['secretStorage'];
  error?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('sync');
  return (
    <Field label={t('apiKey.label')} required error={props.error} hint={t(`apiKey.hint.${props.storage}`)}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={props.value}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
