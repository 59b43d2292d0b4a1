/**
 * Pickers opened by the review shortcuts: a category picker (type to filter, arrows, Enter) and a tag picker, and
 * a note dialog. Each is a small modal dialog that returns focus to the table when it closes.
 */
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { Kbd } from '../../components/ui';
import { i18n } from '../../i18n';
import { transactionCount } from './use-review-actions';

interface Option {
  id: string;
  label: string;
  group?: string;
  color?: string;
  /** A group of other options (a parent category): a match of equal rank goes after its children. */
  isGroup?: boolean;
}

/**
 * The options matching what was typed, best first: a name that starts with it, then a name that holds it, then a
 * group's name that holds it; within a rank, a category before a group. So "trav" and Enter picks "Travel", not its
 * group "Travel & entertainment".
 */
export function matchOptions<O extends Option>(options: readonly O[], q: string): O[] {
  const needle = q.trim().toLowerCase();
  if (!needle) return [...options];
  const rank = (o: O) => {
    const label = o.label.toLowerCase();
    const base = label.startsWith(needle) ? 0 : label.includes(needle) ? 2 : o.group?.toLowerCase().includes(needle) ? 4 : -1;
    return base < 0 ? -1 : base + (o.isGroup ? 1 : 0);
  };
  return options
    .map((o, i) => ({ o, i, r: rank(o) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.o);
}

/** The option that makes what was typed (never an id of a record: those are not empty-prefixed). */
const CREATE_ID = '\u0000create';

function ListPicker(props: {
  title: string;
  placeholder: string;
  options: Option[];
  onPick: (id: string) => void;
  onClose: () => void;
  extra?: React.ReactNode;
  /** Offered as the last option when what was typed names no option exactly: make it, then pick it. */
  create?: { label: (q: string) => string; run: (q: string) => void };
}) {
  const { t } = useTranslation('transactions');
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const titleId = useId();
  const { create } = props;
  const shown = useMemo(() => {
    const matched = matchOptions(props.options, q);
    const typed = q.trim();
    const exact = props.options.some((o) => o.label.toLocaleLowerCase() === typed.toLocaleLowerCase());
    return create && typed && !exact ? [...matched, { id: CREATE_ID, label: create.label(typed) }] : matched;
  }, [q, props.options, create]);
  const pick = (id: string) => (id === CREATE_ID ? create?.run(q.trim()) : props.onPick(id));
  useEffect(() => inputRef.current?.focus(), []);
  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  function onKey(e: KeyboardEvent) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(shown.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const o = shown[active];
      if (o) pick(o.id);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      props.onClose();
    }
  }

  return (
    <>
      <div className="overlay top" onClick={props.onClose} aria-hidden="true" />
      <div className="dialog picker" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{props.title}</h2>
        <input
          ref={inputRef}
          className="input"
          placeholder={props.placeholder}
          aria-label={props.placeholder}
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={shown[active] ? `${listId}-${active}` : undefined}
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
        <div className="picker-list" id={listId} role="listbox" aria-label={props.title}>
          {shown.length === 0 ? <div className="picker-empty">{t('pickers.nothing', { q })}</div> : null}
          {shown.map((o, i) => (
            <div
              key={o.id}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className="picker-option"
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o.id);
              }}
            >
              {o.color ? <span className="cat-dot" style={{ background: o.color }} aria-hidden="true" /> : null}
              <span className="grow">{o.label}</span>
              {o.group ? <span className="faint small">{o.group}</span> : null}
            </div>
          ))}
        </div>
        {props.extra}
        <p className="faint small">
          <kbd>↑</kbd> <kbd>↓</kbd> {t('pickers.move')}, <kbd>↵</kbd> {t('pickers.choose')}, <Kbd k="Esc" /> {t('pickers.cancel')}
        </p>
      </div>
    </>
  );
}

/** Categories as options: each category under its group's name; groups themselves are choosable too. */
export function categoryOptions(categories: readonly TransactionCategory[]): Option[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const parents = new Set(categories.map((c) => c.parentId));
  return categories.map((c) => ({
    id: c.slug,
    label: c.name,
    group: c.parentId ? byId.get(c.parentId)?.name : i18n.t('transactions:pickers.group'),
    color: c.color,
    isGroup: parents.has(c.id),
  }));
}

export function CategoryPicker(props: {
  categories: readonly TransactionCategory[];
  count: number;
  onPick: (slug: string | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('transactions');
  const options = useMemo(
    () => [{ id: '__none', label: t('uncategorised'), group: t('pickers.removeCategory') }, ...categoryOptions(props.categories)],
    [props.categories, t],
  );
  return (
    <ListPicker
      title={
        props.count === 1 ? t('pickers.categoriseOne') : t('pickers.categoriseMany', { what: transactionCount(props.count) })
      }
      placeholder={t('pickers.typeCategory')}
      options={options}
      onPick={(id) => props.onPick(id === '__none' ? null : id)}
      onClose={props.onClose}
    />
  );
}

export function TagPicker(props: {
  tags: readonly { id: string; name: string }[];
  count: number;
  onPick: (id: string) => void;
  /** Makes a tag of the name typed and adds it (a tag is made where it is needed, not elsewhere first). */
  onCreate: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('transactions');
  const options = useMemo(() => props.tags.map((tag) => ({ id: tag.id, label: tag.name })), [props.tags]);
  const { onCreate } = props;
  const create = useMemo(() => ({ label: (q: string) => t('pickers.createTag', { name: q }), run: onCreate }), [t, onCreate]);
  return (
    <ListPicker
      title={props.count === 1 ? t('pickers.tagOne') : t('pickers.tagMany', { what: transactionCount(props.count) })}
      placeholder={t('pickers.typeTag')}
      options={options}
      onPick={props.onPick}
      onClose={props.onClose}
      create={create}
      extra={options.length === 0 ? <p className="faint">{t('pickers.noTags')}</p> : null}
    />
  );
}

export function NoteDialog(props: {
  initial: string;
  count: number;
  onSave: (note: string | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('transactions');
  const [note, setNote] = useState(props.initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  useEffect(() => ref.current?.focus(), []);
  return (
    <>
      <div className="overlay top" onClick={props.onClose} aria-hidden="true" />
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onSubmit={(e) => {
          e.preventDefault();
          props.onSave(note.trim() ? note.trim() : null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            props.onSave(note.trim() ? note.trim() : null);
          }
        }}
      >
        <h2 id={titleId}>
          {props.count === 1 ? t('pickers.note') : t('pickers.noteMany', { what: transactionCount(props.count) })}
        </h2>
        <label className="field">
          <span className="sr-only">{t('pickers.note')}</span>
          <textarea ref={ref} className="textarea" value={note} onChange={(e) => setNote(e.target.value)} maxLength={10000} />
        </label>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t('common:cancel')}
          </button>
          <button type="submit" className="btn primary">
            {t('pickers.saveNote')} <Kbd k="Ctrl ↵" />
          </button>
        </div>
      </form>
    </>
  );
}
