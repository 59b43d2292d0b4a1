/**
 * Team settings → Mail server → "Send a test message": a real message through the saved server
 * (`POST /app/smtp/test`) to the address given, the person's own by default. What the server answered shows under
 * the button: its acceptance, or why it did not take the message (the server's words, in English, beside ours).
 */
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { appSmtpRoutes, type SmtpTestSent } from '../../../src-shared/contract/app-smtp';
import { ErrorBanner } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { useConnection } from '../../stores/connection';

/** Answers the mail server (or our checks of the request) gave, said with the server's own words. */
const SAID_BY_SERVER: ReadonlySet<number> = new Set([409, 422, 502]);

export function SmtpTestMessage() {
  const { t } = useTranslation('team');
  const own = useConnection((s) => s.session?.user.email ?? '');
  const [to, setTo] = useState(own);
  const [result, setResult] = useState<{ sent: SmtpTestSent['data'] } | { failure: unknown } | null>(null);
  const send = useWrite(appSmtpRoutes.test);
  const id = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    try {
      const answer = await send.mutateAsync({ body: to.trim() ? { to: to.trim() } : {} });
      setResult({ sent: answer.data });
    } catch (failure) {
      setResult({ failure });
    }
  }

  const failure = result && 'failure' in result ? result.failure : null;
  const serverSaid = failure instanceof ApiClientError && SAID_BY_SERVER.has(failure.status) ? failure : null;

  return (
    <form className="smtp-test" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('mail.test.title')}</h3>
      <div className="field">
        <label htmlFor={`${id}-to`}>{t('mail.test.to')}</label>
        <input
          id={`${id}-to`}
          className="input"
          type="email"
          value={to}
          autoComplete="email"
          aria-describedby={`${id}-hint`}
          onChange={(e) => setTo(e.target.value)}
        />
        <span className="hint" id={`${id}-hint`}>
          {t('mail.test.hint')}
        </span>
      </div>
      <div className="panel-actions">
        <button type="submit" className="btn" disabled={send.isPending}>
          {send.isPending ? t('mail.test.sending') : t('mail.test.send')}
        </button>
      </div>
      <div aria-live="polite">
        {result && 'sent' in result ? (
          <p className="banner ok" role="status">
            <span className="grow">
              {t('mail.test.sent', { to: result.sent.to })}{' '}
              <small>
                {t('mail.test.answered')} <span lang="en">{result.sent.response}</span>
              </small>
            </span>
          </p>
        ) : null}
        {serverSaid ? (
          <div className="banner error" role="alert">
            <div className="grow">
              <strong>{t('mail.test.failed')}</strong>
              <small lang="en">{serverSaid.message}</small>
              {serverSaid.description ? <small lang="en">{serverSaid.description}</small> : null}
            </div>
          </div>
        ) : failure ? (
          <ErrorBanner error={failure} />
        ) : null}
      </div>
    </form>
  );
}
