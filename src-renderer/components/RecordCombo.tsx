/**
 * Choosing one record by typing part of its name: the matches come from the API as the text settles (so every
 * record can be found, not only a first page), picked with ↑/↓ and Enter or the mouse. An ARIA combobox over a
 * listbox; `useMatches` is the list query of the record kind (a hook, the same for the component's life).
 */
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchCommit } from '../lib/use-search-text';

export interface ComboOption {
  id: string;
  label: string;
  detail?: string;
}

export function RecordCombo<T>(props: {
  id: string;
  /** The listbox's name ("Customer", "Invoice"). */
  label: string;
  placeholder: string;
  /** Said when nothing matches. */
  emptyText: string;
  value: T | null;
  onChange: (value: T | null) => void;
  option: (value: T) => ComboOption;
  useMatches: (q: string, enabled: boolean) => { items: readonly T[]; isLoading: boolean };
  describedBy?: string;
  invalid?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(props.value ? props.option(props.value).label : '');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  useSearchCommit(text, q, setQ);
  const matches = props.useMatches(q.trim(), open);
  const options = matches.items;

  function choose(value: T) {
    props.onChange(value);
    setText(props.option(value).label);
    setOpen(false);
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      const value = options[active];
      if (value) choose(value);
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation();
      setOpen(false);
    }
  }

  return (
    <div className="combo">
      <input
        id={props.id}
        className="input"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid}
        // biome-ignore lint/a11y/noAutofocus: a form that opens on this field
        autoFocus={props.autoFocus}
        autoComplete="off"
        placeholder={props.placeholder}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
          if (props.value) props.onChange(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKey}
      />
      {open ? (
        <div className="combo-list" id={listId} role="listbox" aria-label={props.label}>
          {options.length === 0 ? (
            <div className="picker-empty">{matches.isLoading ? t('loading') : props.emptyText}</div>
          ) : (
            options.map((value, i) => {
              const o = props.option(value);
              return (
                <div
                  key={o.id}
                  id={`${listId}-${i}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === active}
                  className="picker-option"
                  onMouseMove={(e) => {
                    if (e.movementX || e.movementY) setActive(i);
                  }}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(value);
                  }}
                >
                  <span className="grow">{o.label}</span>
                  {o.detail ? <span className="faint small">{o.detail}</span> : null}
                </div>
              );
            })
          )}
        </div>
      ) : null}
    </div>
  );
}
