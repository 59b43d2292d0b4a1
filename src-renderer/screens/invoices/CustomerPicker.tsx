/**
 * Choosing the invoice's customer: type part of a name, pick from the matches with ↑/↓ and Enter or the mouse
 * (an ARIA combobox; the list asks the API, so every customer can be found, not only a first page).
 */
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Customer, customerRoutes } from '../../../src-shared/contract/customers';
import { useCursorList } from '../../data/use-cursor-list';
import { useSearchCommit } from '../../lib/use-search-text';

export function CustomerPicker(props: {
  id: string;
  value: Customer | null;
  onChange: (customer: Customer | null) => void;
  describedBy: string | undefined;
  invalid: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('invoices');
  const [text, setText] = useState(props.value?.name ?? '');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  useSearchCommit(text, q, setQ);
  const matches = useCursorList(
    customerRoutes.list,
    { q: q.trim() || undefined, pageSize: 8, sort: ['name', 'asc'] },
    { enabled: open },
  );
  const options = matches.items;

  function choose(c: Customer) {
    props.onChange(c);
    setText(c.name);
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
      const c = options[active];
      if (c) choose(c);
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
        // biome-ignore lint/a11y/noAutofocus: the drawer opens on its first field
        autoFocus={props.autoFocus}
        autoComplete="off"
        placeholder={t('form.customerPlaceholder')}
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
        <div className="combo-list" id={listId} role="listbox" aria-label={t('form.customer')}>
          {options.length === 0 ? (
            <div className="picker-empty">{matches.isLoading ? t('common:loading') : t('form.noCustomer')}</div>
          ) : (
            options.map((c, i) => (
              <div
                key={c.id}
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
                  choose(c);
                }}
              >
                <span className="grow">{c.name}</span>
                <span className="faint small">{c.billingEmail ?? c.email ?? ''}</span>
              </div>
            ))
          )}
        </div>
      ) : null}
    </div>
  );
}
