/**
 * A day typed and read in the user's own date format (Settings), not the browser's: the native date input shows
 * "mm/dd/yyyy" on a German screen. The value in and out stays an ISO day ("2026-03-15"), so callers and the API do
 * not change. What is typed is read leniently (lib/date-input), written out in full on blur, and a text that is not
 * a day, or lies outside min/max, is said so under the field and reaches the caller as '' (never half-typed).
 */
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayIn } from '../../src-shared/domain/invoice-dates';
import { datePattern, parseDayInput } from '../lib/date-input';
import { formatDate, formatPreferences } from '../lib/format';
import { Field } from './ui';

export interface DateInputProps {
  /** An ISO day, or '' for none. */
  value: string;
  /** The ISO day typed, or '' while the field is empty or `valid` is false (its text is not a day in range). */
  onChange: (iso: string, valid: boolean) => void;
  min?: string;
  max?: string;
  id?: string;
  name?: string;
  className?: string;
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/** The text of the field and what is wrong with it, kept apart from the ISO value the caller holds. */
function useDayText(props: DateInputProps) {
  const { t } = useTranslation('common');
  const [text, setText] = useState(() => (props.value ? formatDate(props.value) : ''));
  const [left, setLeft] = useState(false);
  const sent = useRef(props.value);

  // A value set from outside (a reset, a preset, another field) replaces what was typed.
  useEffect(() => {
    if (props.value === sent.current) return;
    sent.current = props.value;
    setText(props.value ? formatDate(props.value) : '');
    setLeft(false);
  }, [props.value]);

  const { dateFormat, timezone } = formatPreferences();
  const referenceYear = Number(dayIn(new Date(), timezone).slice(0, 4));
  const pattern = datePattern(dateFormat, {
    day: t('dateField.letters.day'),
    month: t('dateField.letters.month'),
    year: t('dateField.letters.year'),
  });

  /** The ISO day a text stands for ('' if none) and what is wrong with it. */
  function check(typed: string): { iso: string; problem?: string } {
    const read = parseDayInput(typed, dateFormat, referenceYear);
    if (read.kind === 'empty') return { iso: '' };
    if (read.kind === 'invalid') return { iso: '', problem: t('dateField.invalid', { pattern }) };
    if (props.min && read.iso < props.min) return { iso: '', problem: t('dateField.beforeMin', { min: formatDate(props.min) }) };
    if (props.max && read.iso > props.max) return { iso: '', problem: t('dateField.afterMax', { max: formatDate(props.max) }) };
    return { iso: read.iso };
  }
  const { iso, problem } = check(text);

  function onChange(e: ChangeEvent<HTMLInputElement>) {
    setText(e.target.value);
    const next = check(e.target.value);
    if (next.iso === sent.current && !next.problem === !problem) return;
    sent.current = next.iso;
    props.onChange(next.iso, !next.problem);
  }

  function onBlur() {
    setLeft(true);
    if (iso) setText(formatDate(iso));
  }

  const input = {
    type: 'text',
    inputMode: 'numeric',
    autoComplete: 'off',
    placeholder: pattern,
    value: text,
    onChange,
    onBlur,
    name: props.name,
    disabled: props.disabled,
    autoFocus: props.autoFocus,
  } as const;
  return { problem, left, input };
}

/** The bare input, for a caller that lays out its own label; its problem shows after it. */
export function DateInput(props: DateInputProps) {
  const day = useDayText(props);
  const shown = day.left ? day.problem : undefined;
  const problemId = useId();
  const describedBy = [props['aria-describedby'], shown ? problemId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <>
      <input
        id={props.id}
        className={`input ${props.className ?? ''}`}
        required={props.required}
        aria-invalid={Boolean(shown) || props['aria-invalid']}
        aria-describedby={describedBy}
        {...day.input}
      />
      {shown ? (
        <span className="error" id={problemId} role="alert">
          {shown}
        </span>
      ) : null}
    </>
  );
}

/** A labelled day in a form (like TextField): the field's error is what is wrong with the text, else the caller's. */
export function DateField(props: Omit<DateInputProps, 'id'> & { label: string; error?: string; hint?: string }) {
  const day = useDayText(props);
  // a caller's error (say "required" on submit) while the text is not a day is that it is not a day
  const error = day.problem && (day.left || props.error) ? day.problem : props.error;
  return (
    <Field label={props.label} required={props.required} error={error} hint={props.hint} className={props.className}>
      {({ id, describedBy, invalid, required }) => (
        <input
          id={id}
          className="input"
          required={required}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          {...day.input}
        />
      )}
    </Field>
  );
}

/** A day among the filters of a toolbar: its label above it, no form around it. */
export function DateFilter(props: Omit<DateInputProps, 'id'> & { label: string }) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id}>{props.label}</label>
      <DateInput id={id} {...props} />
    </div>
  );
}
