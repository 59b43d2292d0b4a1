/**
 * The personal formats as form fields, each choice shown by an example in itself ("05.03.2026", "1.234,56"), and a
 * line that previews amounts and dates as they will read. Used by Settings and by the question at the first sign-in.
 */
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/ui';
import { createFormatter, NUMBER_FORMATS } from '../../lib/format';
import { DATE_FORMATS, type FormatsDraft, localeChoices, localeName, timeZoneChoices } from './formats';

const SAMPLE_DAY = '2026-03-05';
const SAMPLE_INSTANT = '2026-03-05T17:30:00Z';

export function FormatsFields({ draft, onChange }: { draft: FormatsDraft; onChange(next: FormatsDraft): void }) {
  const { t, i18n } = useTranslation('settings');
  const set = (patch: Partial<FormatsDraft>) => onChange({ ...draft, ...patch });
  const preview = createFormatter(draft);
  const sampleOf = (patch: Partial<FormatsDraft>) => createFormatter({ ...draft, ...patch });
  return (
    <div className="formats">
      <div className="formats-grid">
        <Field label={t('formats.locale')} hint={t('formats.localeHint')}>
          {({ id, describedBy }) => (
            <select
              id={id}
              aria-describedby={describedBy}
              className="select"
              value={draft.locale}
              onChange={(e) => set({ locale: e.target.value })}
            >
              {localeChoices(draft.locale).map((l) => (
                <option key={l} value={l}>
                  {localeName(l, i18n.language)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('formats.numberFormat')} hint={t('formats.numberHint')}>
          {({ id, describedBy }) => (
            <select
              id={id}
              aria-describedby={describedBy}
              className="select"
              value={draft.numberFormat}
              onChange={(e) => set({ numberFormat: e.target.value as FormatsDraft['numberFormat'] })}
            >
              {NUMBER_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {f === 'locale'
                    ? t('formats.numberOfLocale', { example: sampleOf({ numberFormat: 'locale' }).number(1234.56, 2) })
                    : sampleOf({ numberFormat: f }).number(1234.56, 2)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('formats.dateFormat')}>
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={draft.dateFormat}
              onChange={(e) => set({ dateFormat: e.target.value as FormatsDraft['dateFormat'] })}
            >
              {DATE_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {sampleOf({ dateFormat: f }).date(SAMPLE_DAY)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('formats.timeFormat')}>
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={draft.timeFormat}
              onChange={(e) => set({ timeFormat: Number(e.target.value) === 12 ? 12 : 24 })}
            >
              {([24, 12] as const).map((h) => (
                <option key={h} value={h}>
                  {t(h === 24 ? 'formats.clock24' : 'formats.clock12', {
                    example: sampleOf({ timeFormat: h, timezone: 'UTC' }).time(SAMPLE_INSTANT),
                  })}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('formats.timezone')}>
          {({ id }) => (
            <select id={id} className="select" value={draft.timezone} onChange={(e) => set({ timezone: e.target.value })}>
              {timeZoneChoices(draft.timezone).map((z) => (
                <option key={z} value={z}>
                  {z.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('formats.weekStart')}>
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={draft.weekStartsOnMonday ? 'monday' : 'sunday'}
              onChange={(e) => set({ weekStartsOnMonday: e.target.value === 'monday' })}
            >
              <option value="monday">{t('formats.monday')}</option>
              <option value="sunday">{t('formats.sunday')}</option>
            </select>
          )}
        </Field>
      </div>
      <p className="formats-preview" aria-live="polite">
        <span className="faint">{t('formats.preview')}</span>{' '}
        <span data-testid="formats-preview">
          {preview.amount(-1234.5, 'EUR')} · {preview.amount(127899.74, 'USD')} · {preview.dateTime(SAMPLE_INSTANT)}
        </span>
      </p>
    </div>
  );
}
