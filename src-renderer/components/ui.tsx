/** Small building blocks shared by the screens. */
import { type ChangeEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../src-shared/api-client';

export function Field(props: {
  label: string;
  required?: boolean;
  error?: string | undefined;
  hint?: string;
  className?: string;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean; required: boolean }) => ReactNode;
}) {
  const id = useId();
  const errId = `${id}-err`;
  const hintId = `${id}-hint`;
  const describedBy = [props.error ? errId : null, props.hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${props.className ?? ''}`}>
      <label htmlFor={id} className={props.required ? 'required' : undefined}>
        {props.label}
      </label>
      {props.children({ id, describedBy, invalid: Boolean(props.error), required: Boolean(props.required) })}
      {props.error ? (
        <span className="error" id={errId} role="alert">
          {props.error}
        </span>
      ) : props.hint ? (
        <span className="hint" id={hintId}>
          {props.hint}
        </span>
      ) : null}
    </div>
  );
}

/** A labelled search box inside a form or a panel (a list's own search bar is SearchField). */
export function SearchInputField(props: { label: string; hint?: string; value: string; onChange: (text: string) => void }) {
  return (
    <Field label={props.label} hint={props.hint}>
      {({ id, describedBy }) => (
        <input
          id={id}
          className="input"
          type="search"
          value={props.value}
          aria-describedby={describedBy}
          onChange={(e) => props.onChange(e.target.value)}
          autoComplete="off"
        />
      )}
    </Field>
  );
}

/** A labelled text input in a form (Field with its input): its error or hint under it, named by both. */
export function TextField(props: {
  name: string;
  label: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  error?: string;
  hint?: string;
  required?: boolean;
  type?: string;
  readOnly?: boolean;
  inputMode?: 'decimal' | 'numeric' | 'email';
  autoComplete?: string;
  autoFocus?: boolean;
  className?: string;
}) {
  return (
    <Field label={props.label} required={props.required} error={props.error} hint={props.hint} className={props.className}>
      {({ id, describedBy, invalid, required }) => (
        <input
          id={id}
          name={props.name}
          className="input"
          type={props.type ?? 'text'}
          required={required}
          value={props.value}
          onChange={props.onChange}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          readOnly={props.readOnly}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete ?? 'off'}
          // biome-ignore lint/a11y/noAutofocus: a form that opens on this field asks for it
          autoFocus={props.autoFocus}
        />
      )}
    </Field>
  );
}

/** A file refused with what is wrong in it, line by line (the server's words, in English). */
export function RefusedLines({ title, lines }: { title: string; lines: readonly string[] }) {
  return (
    <div className="banner error" role="alert">
      <div className="grow">
        <strong>{title}</strong>
        <ul className="line-errors" lang="en">
          {lines.slice(0, 20).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** What a form's answer said about no field in particular (lib/field-errors.ts `FORM_KEY`), above the form. */
export function FormError({ message }: { message: string | undefined }) {
  return message ? (
    <div className="banner error" role="alert">
      {message}
    </div>
  ) : null;
}

/** An error from the API, said for people, with the request id support needs. */
export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const e = error instanceof ApiClientError ? error : null;
  let title = error instanceof Error ? error.message : String(error);
  let detail: string | undefined = e?.description;
  if (e?.isNetworkError) {
    title = t('errors.unreachable');
    detail = t('errors.unreachableDetail');
  } else if (e?.status === 401) {
    title = t('errors.keyRefused');
    detail = t('errors.keyRefusedDetail');
  } else if (e?.status === 403) {
    title = t('errors.forbidden');
  } else if (e?.status === 429) {
    title = e.retryAfterSeconds ? t('errors.tooMany', { count: e.retryAfterSeconds }) : t('errors.tooManySoon');
  }
  return (
    <div className="banner error" role="alert">
      <div className="grow">
        <strong>{title}</strong>
        {detail ? <small>{detail}</small> : null}
        {e?.requestId ? <small>{t('errors.requestId', { id: e.requestId })}</small> : null}
      </div>
      {onRetry ? (
        <button type="button" className="btn" onClick={onRetry}>
          {t('retry')}
        </button>
      ) : null}
    </div>
  );
}

/** A modal confirmation: focus starts on Cancel (the safe choice); Esc cancels; focus stays inside. */
export function ConfirmDialog(props: {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <>
      <div className="overlay top" onClick={props.onCancel} aria-hidden="true" />
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onCancel();
          }
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        <div className="muted">{props.body}</div>
        <div className="dialog-actions">
          <button type="button" className="btn" ref={cancelRef} onClick={props.onCancel}>
            {t('cancel')}
          </button>
          <button
            type="button"
            className={`btn ${props.danger ? 'danger solid' : 'primary'}`}
            onClick={props.onConfirm}
            disabled={props.busy}
          >
            {props.confirmLabel}
          </button>
        </div>
      </div>
    </>
  );
}

/** Key names as the user's keyboard prints them ("Ctrl" is "Strg" on a German one), from `common:keys`. */
const KEY_NAMES = new Set(['Ctrl', 'Shift', 'Esc', 'Space', 'PgDn', 'PgUp', 'Home', 'End']);

/** A key or a chord ("Ctrl ↵", "Shift ↓") in the user's words. */
export function Kbd({ k }: { k: string }) {
  const { t } = useTranslation();
  return (
    <kbd>
      {k
        .split(' ')
        .map((part) => (KEY_NAMES.has(part) ? t(`keys.${part}`) : part))
        .join(' ')}
    </kbd>
  );
}

export function SearchIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" fill="none" aria-hidden="true">
      <circle cx="7" cy="7" r="5" stroke="currentColor" strokeWidth="1.6" />
      <path d="M11 11l3.5 3.5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

export function PeopleIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" fill="none" aria-hidden="true">
      <circle cx="7.5" cy="7" r="3" stroke="currentColor" strokeWidth="1.5" />
      <path d="M2 16c.8-2.8 3-4.2 5.5-4.2S12.2 13.2 13 16" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      <circle cx="14" cy="7.5" r="2.3" stroke="currentColor" strokeWidth="1.4" />
      <path d="M14.5 11.8c1.8.3 3 1.6 3.5 4" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  );
}
