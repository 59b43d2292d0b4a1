/**
 * Settings → Private network addresses (desktop only; docs/decisions/0191-desktop-private-hosts.md): which private
 * addresses workflows, sync and mail may reach — the company's mail server on 192.168.1.10:587, say. Everything
 * else on the local network stays out of reach (0175). The user of the desktop app is its operator, so this is
 * theirs, kept by the shell through the bridge and never by the server's API; the entries of
 * `$FINOPS_ALLOW_PRIVATE_HOSTS` are shown beside them, allowed as well. The list is saved whole: an entry the shell
 * refuses is named and nothing is saved.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DesktopOperatorSettings, DesktopPrivateHosts, RefusedPrivateHost } from '../../../src-shared/desktop-bridge';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner, RefusedLines, TextField } from '../../components/ui';
import { useToasts } from '../../stores/toasts';
import { type AddProblem, addEntries, isChanged, removeEntry } from './private-hosts-form';

export function PrivateHostsPanel({ bridge }: { bridge: DesktopOperatorSettings }) {
  const { t } = useTranslation('settings');
  const [saved, setSaved] = useState<DesktopPrivateHosts | null>(null);
  // The form starts afresh from what was saved, each time it is saved.
  const [version, setVersion] = useState(0);
  const [loadError, setLoadError] = useState<unknown>(null);
  const load = () => {
    setLoadError(null);
    bridge.getPrivateHosts().then(setSaved, setLoadError);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once when the panel opens
  useEffect(load, []);
  return (
    <section className="panel" aria-labelledby="private-hosts-title">
      <h2 id="private-hosts-title">{t('privateHosts.title')}</h2>
      <p className="muted">{t('privateHosts.intro')}</p>
      {loadError ? (
        <ErrorBanner error={loadError} onRetry={load} />
      ) : saved ? (
        <PrivateHostsForm
          key={version}
          bridge={bridge}
          saved={saved}
          onSaved={(next) => {
            setSaved(next);
            setVersion((v) => v + 1);
          }}
        />
      ) : (
        <div className="skeleton-block formats-skeleton" />
      )}
    </section>
  );
}

function PrivateHostsForm(props: {
  bridge: DesktopOperatorSettings;
  saved: DesktopPrivateHosts;
  onSaved: (saved: DesktopPrivateHosts) => void;
}) {
  const { t } = useTranslation('settings');
  const toast = useToasts();
  const [entries, setEntries] = useState<string[]>(props.saved.entries);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<AddProblem | null>(null);
  const [refused, setRefused] = useState<RefusedPrivateHost[]>([]);
  const [saving, setSaving] = useState(false);
  const refusedEntries = new Set(refused.map((r) => r.entry));

  function add(e: FormEvent) {
    e.preventDefault();
    const outcome = addEntries(entries, typed);
    if (!outcome.ok) return setProblem(outcome.problem);
    setEntries(outcome.entries);
    setTyped('');
    setProblem(null);
  }

  async function save() {
    setSaving(true);
    try {
      const result = await props.bridge.setPrivateHosts(entries);
      if (!result.ok) return setRefused(result.refused);
      setRefused([]);
      toast.show(t('privateHosts.saved'));
      props.onSaved(result.saved);
    } catch (err) {
      toast.error(err, t('privateHosts.saveFailed'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      {refused.length > 0 ? (
        <RefusedLines title={t('privateHosts.refused', { count: refused.length })} lines={refused.map((r) => r.message)} />
      ) : null}
      <DataTable
        label={t('privateHosts.list')}
        className="compact"
        rows={entries}
        rowKey={(entry) => entry}
        empty={<p className="muted">{t('privateHosts.none')}</p>}
        hideWhenEmpty
        columns={[
          {
            id: 'entry',
            header: t('privateHosts.entry'),
            cell: (entry) => (
              <>
                <code data-testid="private-host">{entry}</code>{' '}
                {refusedEntries.has(entry) ? <span className="status-pill bad">{t('privateHosts.notSaved')}</span> : null}
              </>
            ),
          },
          {
            id: 'actions',
            header: t('common:actions'),
            srOnlyHeader: true,
            className: 'num',
            cell: (entry) => (
              <button
                type="button"
                className="btn small"
                aria-label={t('privateHosts.removeOne', { entry })}
                onClick={() => {
                  setEntries((list) => removeEntry(list, entry));
                  setRefused((list) => list.filter((r) => r.entry !== entry));
                }}
              >
                {t('privateHosts.remove')}
              </button>
            ),
          },
        ]}
      />
      <form onSubmit={add} noValidate aria-label={t('privateHosts.add')} className="grid-2">
        <TextField
          name="privateHost"
          label={t('privateHosts.newEntry')}
          hint={t('privateHosts.hint')}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setProblem(null);
          }}
          error={problem ? t(`privateHosts.problems.${problem}`) : undefined}
        />
        <div className="panel-actions">
          <button type="submit" className="btn">
            {t('privateHosts.add')}
          </button>
        </div>
      </form>
      {props.saved.fromEnvironment.length > 0 ? (
        <p className="faint" data-testid="private-hosts-env">
          {t('privateHosts.fromEnvironment', { entries: props.saved.fromEnvironment.join(', ') })}
        </p>
      ) : null}
      <div className="panel-actions">
        <button
          type="button"
          className="btn primary"
          disabled={saving || !isChanged(entries, props.saved.entries)}
          onClick={() => void save()}
        >
          {t('privateHosts.save')}
        </button>
      </div>
    </>
  );
}
