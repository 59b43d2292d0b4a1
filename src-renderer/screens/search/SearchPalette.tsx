/**
 * One search box over the team's records (`/v1/search`: customers, invoices, transactions, projects, inbox,
 * documents), opened from the header or with Ctrl+K (⌘K) from anywhere. Type, move with ↑/↓, open with Enter;
 * Esc closes and gives focus back. With nothing typed it lists the newest records. An ARIA combobox over a listbox
 * of grouped options, the active one followed with `aria-activedescendant`.
 */
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documentRoutes } from '../../../src-shared/contract/documents';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import { type SearchResult, searchRoutes } from '../../../src-shared/contract/search';
import { Kbd, SearchIcon } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { downloadFile } from '../../lib/download';
import { formatAmount, formatDate } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { useSearchCommit } from '../../lib/use-search-text';
import { useToasts } from '../../stores/toasts';
import { factsOf, groupResults, targetOf, titleOf } from './search-results';
import './search.css';

const isMac = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

export function SearchPalette({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('search');
  const [open, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen((o) => {
          if (!o) returnTo.current = document.activeElement as HTMLElement | null;
          return !o;
        });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);

  const close = () => {
    setOpen(false);
    returnTo.current?.focus?.();
  };

  if (!enabled) return null;
  return (
    <>
      <button
        type="button"
        className="btn ghost search-button"
        aria-haspopup="dialog"
        aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}
        onClick={(e) => {
          returnTo.current = e.currentTarget;
          setOpen(true);
        }}
      >
        <SearchIcon />
        <span>{t('button')}</span>
        <Kbd k={isMac() ? '⌘ K' : 'Ctrl K'} />
      </button>
      {open ? <Palette onClose={close} /> : null}
    </>
  );
}

function Palette({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('search');
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  const navigate = useRouter((r) => r.navigate);
  const toast = useToasts();
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const titleId = useId();
  useSearchCommit(text, term, setTerm);
  const found = useRead(searchRoutes.search, {
    query: { searchTerm: term.trim() || undefined, limit: 40, itemsPerTableLimit: 6 },
  });
  const groups = useMemo(() => groupResults(found.data ?? []), [found.data]);
  const flat = useMemo(() => groups.flatMap((g) => g.results), [groups]);
  const waiting = text !== term || found.isFetching;

  useEffect(() => inputRef.current?.focus(), []);
  // A new answer starts at its first result.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the results change
  useEffect(() => setActive(0), [found.data]);
  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  async function openResult(r: SearchResult) {
    const target = targetOf(r);
    onClose();
    if ('path' in target) {
      navigate(target.path);
      return;
    }
    try {
      const route = target.file === 'inbox' ? inboxRoutes.download : documentRoutes.download;
      await downloadFile(route, { params: { id: target.id } }, target.fileName);
    } catch (err) {
      toast.error(err, t('downloadFailed'));
    }
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(flat.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Home' && flat.length) {
      e.preventDefault();
      setActive(0);
    } else if (e.key === 'End' && flat.length) {
      e.preventDefault();
      setActive(flat.length - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const r = flat[active];
      if (r && !waiting) void openResult(r);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  }

  let index = -1;
  return (
    <>
      <div className="overlay top" onClick={onClose} aria-hidden="true" />
      <div className="dialog search-palette" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="sr-only">
          {t('title')}
        </h2>
        <div className="search search-palette-field">
          <SearchIcon />
          <input
            ref={inputRef}
            className="input"
            type="text"
            role="combobox"
            aria-label={t('label')}
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={flat[active] ? `${listId}-${active}` : undefined}
            placeholder={t('placeholder')}
            value={text}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKey}
          />
        </div>
        <div className="search-results" id={listId} role="listbox" aria-label={t('results')} aria-busy={waiting}>
          {found.error ? (
            <div className="picker-empty" role="alert">
              {t('failed')}
            </div>
          ) : flat.length === 0 ? (
            <div className="picker-empty">{waiting ? t('common:loading') : t('nothing', { q: term.trim() })}</div>
          ) : (
            groups.map((group) => (
              // biome-ignore lint/a11y/useSemanticElements: a group of options inside a listbox (ARIA), not a form's fieldset
              <div key={group.type} role="group" aria-labelledby={`${listId}-${group.type}`} className="search-group">
                <div id={`${listId}-${group.type}`} className="search-group-title" role="presentation">
                  {t(term.trim() ? `types.${group.type}` : `recent.${group.type}`)}
                </div>
                {group.results.map((r) => {
                  index++;
                  const i = index;
                  const facts = factsOf(r);
                  return (
                    <div
                      key={`${r.type}-${r.id}`}
                      id={`${listId}-${i}`}
                      role="option"
                      tabIndex={-1}
                      aria-selected={i === active}
                      className="picker-option search-option"
                      data-result-type={r.type}
                      // Only a pointer that moves chooses: results appearing under a resting one must not.
                      onMouseMove={(e) => {
                        if (e.movementX || e.movementY) setActive(i);
                      }}
                      onMouseDown={(e) => {
                        e.preventDefault();
                        void openResult(r);
                      }}
                    >
                      <span className="grow search-option-main">
                        <span className="search-option-title">{titleOf(r)}</span>
                        <span className="faint small">
                          {[
                            facts.text,
                            facts.status ? t(`statuses.${r.type}.${facts.status}`, { defaultValue: facts.status }) : null,
                            facts.day ? formatDate(facts.day) : null,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </span>
                      </span>
                      {facts.amount ? (
                        <span className="money small">{formatAmount(facts.amount.value, facts.amount.currency)}</span>
                      ) : null}
                    </div>
                  );
                })}
              </div>
            ))
          )}
        </div>
        <p className="faint small search-help">
          <kbd>↑</kbd> <kbd>↓</kbd> {t('help.move')}, <kbd>↵</kbd> {t('help.open')}, <Kbd k="Esc" /> {t('help.close')}
        </p>
      </div>
    </>
  );
}
