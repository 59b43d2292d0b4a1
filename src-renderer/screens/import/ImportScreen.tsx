/**
 * Import a bank file: drop or pick it, see the preview (format, the CSV column mapping — adjustable and previewed
 * again —, new / duplicate / matched-to-hand-entered / held-for-review / rejected counts, every row that is not
 * simply new with its reason, the balance check), commit it with a progress bar; the review queue for uncertain
 * matches; the batch list with undo; reconciliation against a statement balance with the difference and its
 * candidate lines.
 *
 * The account chosen above is where a file of one account goes; a file of several accounts' statements goes to the
 * account each statement names, and the person chooses where none is known (docs/decisions/0117).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ImportBatch, type ImportPreview, importRoutes } from '../../../src-shared/contract/import';
import type { CsvMapping } from '../../../src-shared/contract/import-mapping';
import { AppLink } from '../../components/AppLink';
import { FileDrop } from '../../components/FileDrop';
import { PageHeader } from '../../components/PageHeader';
import { Progress } from '../../components/Progress';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatNumber } from '../../lib/format';
import { readBase64 } from '../../lib/read-file';
import { useToasts } from '../../stores/toasts';
import { Batches } from './Batches';
import { type CommitOptions, PreviewPanel } from './PreviewPanel';
import { Reconcile } from './Reconcile';
import { ReviewQueue } from './ReviewQueue';
import { type Clash, clashOf, commitBlocker, Statements, showsStatements } from './Statements';
import './import.css';

type Phase = { step: 'idle' } | { step: 'reading' | 'previewing' | 'committing'; progress: number | null; label: string };

/** The account select's choice of uploading without an account: the file's statements find theirs. */
const FROM_FILE = '*file*';

export function ImportScreen() {
  const { t } = useTranslation('import');
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const [accountId, setAccountId] = useState('');
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<{ name: string; batches: ImportBatch[] } | null>(null);
  /** The statements' accounts the person chose (by the statement's key), sent with every preview and the commit. */
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [clash, setClash] = useState<Clash | null>(null);
  const upload = useWrite(importRoutes.upload);
  const again = useWrite(importRoutes.preview);
  const commit = useWrite(importRoutes.commit);
  const toast = useToasts();
  const accountList = accounts.data?.data ?? [];
  const account = accountId || accountList[0]?.id || '';
  const chosenAccount = accountList.find((a) => a.id === account);
  const accountTitle = chosenAccount
    ? `${chosenAccount.name} (${chosenAccount.currency})`
    : account === FROM_FILE
      ? t('fromFile')
      : undefined;
  const currencyOfAccount = (id: string | null | undefined) => accountList.find((a) => a.id === id)?.currency;
  /** A statement's rows are in its account's currency, else the one the file states, else the chosen account's. */
  const currencyOf = (index: number) => {
    const s = preview?.statements.find((x) => x.index === index);
    return currencyOfAccount(s?.bankAccountId) ?? s?.currency ?? currencyOfAccount(account) ?? 'EUR';
  };
  const picksOf = (next: Record<string, string>) => (Object.keys(next).length > 0 ? next : undefined);

  async function take(file: File) {
    if (!account) {
      setFailure(new Error(t('chooseAccountFirst')));
      return;
    }
    setFailure(null);
    setPreview(null);
    setChosen({});
    setClash(null);
    try {
      const reading = t('phase.reading', { name: file.name });
      setPhase({ step: 'reading', progress: 0, label: reading });
      const content = await readBase64(file, (p) => setPhase({ step: 'reading', progress: p, label: reading }));
      setPhase({ step: 'previewing', progress: null, label: t('phase.checking') });
      const query = account === FROM_FILE ? {} : { bankAccountId: account };
      setPreview(await upload.mutateAsync({ query, body: { fileName: file.name, content } }));
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  async function previewAgain(mapping: CsvMapping | undefined, picks: Record<string, string>, label: string) {
    if (!preview) return;
    setPhase({ step: 'previewing', progress: null, label });
    setFailure(null);
    try {
      setPreview(await again.mutateAsync({ params: { id: preview.uploadId }, body: { mapping, accounts: picksOf(picks) } }));
      setChosen(picks);
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  /** A statement's account: refused here when another statement goes there already, else previewed with it. */
  function choose(key: string, accountId: string) {
    if (!preview || !accountId) return;
    const other = clashOf(preview, key, accountId);
    setClash(other);
    if (!other) void previewAgain(preview.mapping ?? undefined, { ...chosen, [key]: accountId }, t('phase.choosing'));
  }

  async function doCommit(options: CommitOptions) {
    if (!preview) return;
    setPhase({ step: 'committing', progress: null, label: t('phase.importing', { count: preview.counts.rows }) });
    setFailure(null);
    try {
      const result = await commit.mutateAsync({
        params: { id: preview.uploadId },
        body: { mapping: preview.mapping ?? undefined, accounts: picksOf(chosen), ...options },
      });
      const total = (k: 'created' | 'linked' | 'duplicate' | 'review') =>
        formatNumber(result.batches.reduce((n, b) => n + b.counts[k], 0));
      toast.show(
        t('imported', {
          name: preview.fileName ?? t('theFile'),
          created: total('created'),
          linked: total('linked'),
          duplicate: total('duplicate'),
          review: total('review'),
        }),
      );
      setPreview(null);
      setDone({ name: preview.fileName ?? t('theFile'), batches: result.batches });
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  return (
    <div className="page import-page">
      <PageHeader namespace="import" />

      <section className="card import-card" aria-label={t('fileSection')}>
        <div className="import-top">
          <label className="filter wide">
            <span>{t('oneAccountFiles')}</span>
            <select
              className="select account-select"
              value={account}
              title={accountTitle}
              onChange={(e) => setAccountId(e.target.value)}
              disabled={phase.step !== 'idle'}
            >
              {accountList.length === 0 ? <option value="">{t('noAccount')}</option> : null}
              {accountList.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.currency})
                </option>
              ))}
              {accountList.length > 0 ? <option value={FROM_FILE}>{t('fromFile')}</option> : null}
            </select>
          </label>
          <FileDrop
            inputLabel={t('bankFile')}
            accept=".csv,.txt,.ofx,.qfx,.xml,.sta,.mt940"
            disabled={phase.step !== 'idle' || !account}
            onFile={(file) => void take(file)}
          >
            {t('drop')}
          </FileDrop>
        </div>
        <div className="progress-slot">
          {phase.step !== 'idle' ? (
            <Progress label={phase.label} share={phase.progress} />
          ) : (
            <span className="faint small">{t('previewWritesNothing')}</span>
          )}
        </div>
        {failure ? <ErrorBanner error={failure} /> : null}
        {done && !preview ? <ImportDone {...done} accounts={accountList} onDismiss={() => setDone(null)} /> : null}
        {preview ? (
          <PreviewPanel
            preview={preview}
            currencyOf={currencyOf}
            busy={phase.step !== 'idle'}
            blockedBy={commitBlocker(preview, clash, t)}
            onRemap={(m) => void previewAgain(m, chosen, t('phase.remapping'))}
            onCommit={(o) => void doCommit(o)}
            onCancel={() => setPreview(null)}
          >
            {showsStatements(preview) ? (
              <Statements preview={preview} accounts={accountList} clash={clash} busy={phase.step !== 'idle'} onChoose={choose} />
            ) : null}
          </PreviewPanel>
        ) : null}
      </section>

      <ReviewQueue />
      <Batches />
      <Reconcile accounts={accountList} />
    </div>
  );
}

/**
 * After an import: where its transactions are (the list narrowed to the batch) and, from them, a rule for the next
 * file (the rules screen, told which batch the rule is to be made from). A file of several accounts made a batch
 * per account: each is listed with its account, its counts and both links.
 */
function ImportDone(props: {
  name: string;
  batches: readonly ImportBatch[];
  accounts: readonly { id: string; name: string }[];
  onDismiss: () => void;
}) {
  const { t } = useTranslation('import');
  const links = (id: string) => {
    const batch = encodeURIComponent(id);
    return (
      <>
        <AppLink to={`/transactions?state=all&batch=${batch}`}>{t('done.show')}</AppLink>
        {' · '}
        <AppLink to={`/rules?fromBatch=${batch}`}>{t('done.rule')}</AppLink>
      </>
    );
  };
  const [only] = props.batches;
  return (
    <div className="banner ok import-done" role="status">
      <div className="grow">
        {props.batches.length === 1 && only ? (
          <>
            <strong>{t('done.text', { name: props.name })}</strong> {links(only.id)}
          </>
        ) : (
          <>
            <strong>{t('done.several', { name: props.name, count: props.batches.length })}</strong>
            <ul>
              {props.batches.map((b) => (
                <li key={b.id} data-batch={b.id}>
                  {t('done.batch', {
                    account: props.accounts.find((a) => a.id === b.bankAccountId)?.name ?? b.accountRef ?? b.bankAccountId,
                    created: formatNumber(b.counts.created),
                    linked: formatNumber(b.counts.linked),
                    duplicate: formatNumber(b.counts.duplicate),
                    review: formatNumber(b.counts.review),
                  })}{' '}
                  {links(b.id)}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <button type="button" className="btn ghost small" onClick={props.onDismiss}>
        {t('done.dismiss')}
      </button>
    </div>
  );
}
