/**
 * Tags where they are picked: the team's tags as toggles, and a name field that makes a tag and picks it at once
 * (a person tagging a customer or a transaction should not have to go elsewhere first). `useTagByName` is the one
 * place a typed name becomes a tag: an existing tag of that name (compared case-insensitively, as the server does)
 * is taken instead of made, and a 409 from a tag made meanwhile elsewhere is answered with that tag, not an error.
 */
import { type KeyboardEvent, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../src-shared/api-client';
import { type TagRef, tagRoutes } from '../../src-shared/contract/tags';
import { useWrite } from '../data/use-write';
import { api } from '../lib/api';
import { useToasts } from '../stores/toasts';

/** The tag a typed name means: same name once trimmed, letter case aside; undefined when none has it. */
export function findTagByName<T extends TagRef>(tags: readonly T[], name: string): T | undefined {
  const needle = name.trim().toLocaleLowerCase();
  return tags.find((tag) => tag.name.trim().toLocaleLowerCase() === needle);
}

/** Turns a typed name into a tag: the known one of that name, else a new one (or the one a 409 says exists). */
export function useTagByName() {
  const create = useWrite(tagRoutes.create);
  const { mutateAsync } = create;
  return useCallback(
    async (name: string, known: readonly TagRef[]): Promise<TagRef> => {
      const existing = findTagByName(known, name);
      if (existing) return existing;
      try {
        const made = await mutateAsync({ body: { name: name.trim() } });
        return { id: made.id, name: made.name };
      } catch (err) {
        if (!(err instanceof ApiClientError && err.status === 409)) throw err;
        // Our list was older than the server's: someone made the tag meanwhile; it is the one meant.
        const fresh = await api.call(tagRoutes.list, {});
        const found = findTagByName(fresh.data, name);
        if (!found) throw err;
        return { id: found.id, name: found.name };
      }
    },
    [mutateAsync],
  );
}

export function TagField(props: {
  /** The team's tags; null while they load. */
  tags: readonly TagRef[] | null;
  selected: readonly string[];
  /** A tag was switched on or off (a made or found tag comes here switched on). */
  onToggle: (tag: TagRef, on: boolean) => void;
  legend: string;
  /** Said when the team has no tag yet. */
  empty: string;
  /** Said while the tags load. */
  loading?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('common');
  const toast = useToasts();
  const tagByName = useTagByName();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<TagRef[]>([]);
  const inputId = useId();
  const { tags, selected, onToggle } = props;

  async function add() {
    const typed = name.trim();
    if (!typed || busy) return;
    setBusy(true);
    try {
      const tag = await tagByName(typed, tags ?? []);
      if (!tags?.some((x) => x.id === tag.id)) setMade((m) => [...m, tag]);
      if (!selected.includes(tag.id)) onToggle(tag, true);
      setName('');
    } catch (err) {
      toast.error(err, t('tagField.createFailed', { name: typed }));
    } finally {
      setBusy(false);
    }
  }

  function onKey(e: KeyboardEvent) {
    // Enter makes the tag here; it must not submit the form around the field.
    if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      void add();
    }
  }

  // A tag just made is shown before the list is refetched, so it is visibly picked at once.
  const known = [...(tags ?? []), ...made.filter((m) => !tags?.some((x) => x.id === m.id))];
  return (
    <fieldset className="tag-field" disabled={props.disabled}>
      <legend className="sr-only">{props.legend}</legend>
      {tags === null ? <p className="faint">{props.loading ?? t('loading')}</p> : null}
      {tags !== null && known.length === 0 ? <p className="faint">{props.empty}</p> : null}
      {known.length ? (
        <div className="tag-picker">
          {known.map((tag) => {
            const on = selected.includes(tag.id);
            return (
              <button
                type="button"
                key={tag.id}
                className="tag-option"
                aria-pressed={on}
                title={tag.name}
                onClick={() => onToggle(tag, !on)}
              >
                {tag.name}
              </button>
            );
          })}
        </div>
      ) : null}
      <div className="tag-new">
        <label className="sr-only" htmlFor={inputId}>
          {t('tagField.newTag')}
        </label>
        <input
          id={inputId}
          className="input"
          placeholder={t('tagField.newTag')}
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={onKey}
          autoComplete="off"
        />
        <button type="button" className="btn" onClick={() => void add()} disabled={busy || !name.trim()}>
          {findTagByName(known, name) ? t('tagField.pick') : t('tagField.create')}
        </button>
      </div>
    </fieldset>
  );
}
