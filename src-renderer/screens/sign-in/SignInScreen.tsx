/**
 * Sign-in of the web build: a labelled Email and Password form (docs/decisions/0110). The server sets an HttpOnly
 * session cookie; nothing secret is kept by the page. Wrong credentials, the slow-down after repeated wrong
 * passwords (429 with the seconds to wait) and an unreachable server are each said plainly.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { Field } from '../../components/ui';
import { FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { useConnection } from '../../stores/connection';

export function SignInScreen() {
  const { t } = useTranslation('signin');
  const signIn = useConnection((s) => s.signIn);
  const reason = useConnection((s) => s.signedOutReason);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = `${t('title')} · Finops Desk`;
    emailRef.current?.focus();
  }, [t]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local = {
      email: email.trim() ? undefined : t('enterEmail'),
      password: password ? undefined : t('enterPassword'),
    };
    if (local.email || local.password) {
      setErrors(local);
      (local.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await signIn(email.trim(), password);
    } catch (err) {
      setPassword('');
      if (err instanceof ApiClientError && err.status === 422) {
        const f = fieldErrorsFrom(err, new Set(['email', 'password']));
        setErrors({ email: f.email, password: f.password, form: f[FORM_KEY] });
      } else if (err instanceof ApiClientError && err.isNetworkError) {
        setErrors({ form: t('unreachable') });
      } else {
        setErrors({ form: (err as Error).message });
      }
      passwordRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin-page">
      <form className="signin-card" onSubmit={submit} noValidate aria-labelledby="signin-title">
        <div className="brand signin-brand">
          <span className="brand-mark" aria-hidden="true">
            F
          </span>
          Finops Desk
        </div>
        <h1 id="signin-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        {reason ? (
          <div className="banner info" role="status">
            {reason}
          </div>
        ) : null}
        {errors.form ? (
          <div className="banner error" role="alert">
            {errors.form}
          </div>
        ) : null}
        <Field label={t('email')} error={errors.email}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              ref={emailRef}
              name="email"
              className="input"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              spellCheck={false}
            />
          )}
        </Field>
        <Field label={t('password')} error={errors.password}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              ref={passwordRef}
              name="password"
              className="input"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <button type="submit" className="btn primary signin-submit" disabled={busy}>
          {busy ? t('signingIn') : t('title')}
        </button>
        <p className="faint signin-help">
          {t('noAccount')} <code>finops user create</code>.
        </p>
      </form>
    </main>
  );
}
