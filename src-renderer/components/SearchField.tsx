/**
 * A list's search field: the magnifier, the text, a hint that `/` comes here (the screen wires the key, see
 * lib/use-screen-keys.ts), Esc to empty it, and ↓ (with `enterLeaves`, Enter too) on to the list below.
 */
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from './ui';

export function SearchField(props: {
  inputRef: RefObject<HTMLInputElement | null>;
  /** The field's accessible name ("Search customers"). */
  label: string;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
  /** Focus on to the list below. */
  onLeave: () => void;
  enterLeaves?: boolean;
}) {
  const { value, onChange } = props;
  const { t } = useTranslation();
  return (
    <div className="search">
      <SearchIcon />
      <input
        ref={props.inputRef}
        className="input"
        type="search"
        placeholder={props.placeholder}
        aria-label={props.label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value) onChange('');
          if (e.key === 'ArrowDown' || (props.enterLeaves && e.key === 'Enter' && !e.shiftKey)) {
            e.preventDefault();
            props.onLeave();
          }
        }}
      />
      {value ? null : <kbd title={t('pressSlash')}>/</kbd>}
    </div>
  );
}
