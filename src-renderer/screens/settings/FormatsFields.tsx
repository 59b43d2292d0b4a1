/**
 * The personal formats as form fields, each choice shown by an example in itself ("05.03.2026", "1.234,56"), and a
 * line that previews amounts and dates as they will read. Used by Settings and by the question at the first sign-in.
 */
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/ui';
import { COMPLETE_LANGUAGES, languageOf } from '../../i18n';
import { createFormatter, NUMBER_FORMATS } from '../../lib/format';
import { DATE_FORMATS, type FormatsDraft, localeChoices, localeName, timeZoneChoices, withLocale } from './formats';

const SAMPLE_DAY = '2026-03-05';
const SAMPLE_INSTANT = '2026-03-05T17:30:00Z';

/** A labelled select of values, each option said by `say`. */
function Choice<V extends string | number>(props: {
  label: string;
  hint?: string;
  value: V;
  values: readonly V[];
  say: (value: V) => string;
  onChange: (value: V) => void;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {({ id, describedBy }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          className="select"
          value={String(props.value)}
          onChange={(e) => props.onChange(props.values.find((v) => String(v) === e.target.value) ?? props.value)}
        >
          {props.values.map((v) => (
            <option key={String(v)} value={String(v)}>
              {props.say(v)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function FormatsFields({ draft, onChange }: { draft: FormatsDraft; onChange(next: FormatsDraft): void }) {
  const { t, i18n } = useTranslation('settings');
  const set = (patch: Partial<FormatsDraft>) => onChange({ ...draft, ...patch });
  const preview = createFormatter(draft);
  const sampleOf = (patch: Partial<FormatsDraft>) => createFormatter({ ...draft, ...patch });
  return (
    <div className="formats">
      <div className="formats-grid">
        <Choice
          label={t('formats.locale')}
          hint={t('formats.localeHint')}
          value={draft.locale}
          values={localeChoices(draft.locale)}
          say={(l) =>
            // French screens are started, not finished: say so where it is chosen (the rest shows in English).
            isPartial(l) ? t('formats.partialLanguage', { name: localeName(l, i18n.language) }) : localeName(l, i18n.language)
          }
          onChange={(locale) => onChange(withLocale(draft, locale))}
        />
        <Choice
          label={t('formats.numberFormat')}
          hint={t('formats.numberHint')}
          value={draft.numberFormat}
          values={NUMBER_FORMATS}
          say={(f) => {
            const example = sampleOf({ numberFormat: f }).number(1234.56, 2);
            return f === 'locale' ? t('formats.numberOfLocale', { example }) : example;
          }}
          onChange={(numberFormat) => set({ numberFormat })}
        />
        <Choice
          label={t('formats.dateFormat')}
          value={draft.dateFormat}
          values={DATE_FORMATS}
          say={(f) => sampleOf({ dateFormat: f }).date(SAMPLE_DAY)}
          onChange={(dateFormat) => set({ dateFormat })}
        />
        <Choice
          label={t('formats.timeFormat')}
          value={draft.timeFormat}
          values={[24, 12] as const}
          say={(h) =>
            t(h === 24 ? 'formats.clock24' : 'formats.clock12', {
              example: sampleOf({ timeFormat: h, timezone: 'UTC' }).time(SAMPLE_INSTANT),
            })
          }
          onChange={(timeFormat) => set({ timeFormat })}
        />
        <Choice
          label={t('formats.timezone')}
          value={draft.timezone}
          values={timeZoneChoices(draft.timezone)}
          say={(z) => z.replace(/_/g, ' ')}
          onChange={(timezone) => set({ timezone })}
        />
        <Choice
          label={t('formats.weekStart')}
          value={draft.weekStartsOnMonday ? 'monday' : 'sunday'}
          values={['monday', 'sunday'] as const}
          say={(day) => t(`formats.${day}`)}
          onChange={(day) => set({ weekStartsOnMonday: day === 'monday' })}
        />
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

function isPartial(locale: string): boolean {
  return !(COMPLETE_LANGUAGES as readonly string[]).includes(languageOf(locale));
}
