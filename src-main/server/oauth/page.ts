import crypto from 'node:crypto';
import type { Scope } from '../../../src-shared/contract/scopes';

/**
 * The authorize page: plain server-rendered HTML with one inline stylesheet (allowed by a CSP nonce) and no
 * script, no external asset, no framing. Three views: sign in, consent, and error. Every value written into the
 * page goes through `esc`.
 */

export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The authorization request, carried through the forms as hidden fields and re-validated on every POST. */
export type AuthorizeParams = Record<
  'response_type' | 'client_id' | 'redirect_uri' | 'scope' | 'state' | 'code_challenge' | 'code_challenge_method',
  string | undefined
>;

export const AUTHORIZE_PARAM_NAMES: readonly (keyof AuthorizeParams)[] = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

const AREA_LABELS: Record<string, string> = {
  'bank-accounts': 'bank accounts',
  'tracker-entries': 'time entries',
  'tracker-projects': 'projects',
};

/** `customers.read` → "Read customers"; the umbrellas in words. */
export function describeScope(scope: Scope): string {
  if (scope === 'apis.all') return 'Full access: read and change everything in the team';
  if (scope === 'apis.read') return 'Read everything in the team';
  const [area = scope, action] = scope.split('.');
  const label = AREA_LABELS[area] ?? area.replaceAll('-', ' ');
  return `${action === 'write' ? 'Create, change and delete' : 'Read'} ${label}`;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1d2330}
main{max-width:26rem;margin:8vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:1.25rem;margin:0 0 1rem}.brand{font-weight:700;color:#3552d8;margin-bottom:1.5rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}input[type=email],input[type=password]{width:100%;padding:.55rem .7rem;border:1px solid #c5cad3;border-radius:8px;font:inherit}
ul{padding-left:1.2rem}li code{font-size:.85em;color:#5b6372}.row{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.6rem 1rem;border-radius:8px;border:1px solid #c5cad3;background:#fff;font:inherit;cursor:pointer}
button.primary{background:#3552d8;border-color:#3552d8;color:#fff}.notice{padding:.6rem .8rem;border-radius:8px;background:#fdecea;color:#8a1c12}
.muted{color:#5b6372;font-size:.9em}.link{border:0;background:none;color:#3552d8;padding:0;flex:none;text-decoration:underline}
`;

export interface RenderedPage {
  html: string;
  /** The Content-Security-Policy to send with it. */
  csp: string;
}

function page(title: string, body: string, formTargets: readonly string[]): RenderedPage {
  const nonce = crypto.randomBytes(16).toString('base64');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>${esc(title)} · Finops Desk</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main><div class="brand">Finops Desk</div>${body}</main></body></html>`;
  // form-action also governs where a form's redirect may lead, so the client's redirect origin is listed.
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { html, csp };
}

function hiddenFields(params: AuthorizeParams, csrfToken: string): string {
  const fields = AUTHORIZE_PARAM_NAMES.filter((k) => params[k] !== undefined).map(
    (k) => `<input type="hidden" name="${k}" value="${esc(params[k]!)}">`,
  );
  fields.push(`<input type="hidden" name="csrf_token" value="${esc(csrfToken)}">`);
  return fields.join('');
}

function scopeList(scopes: readonly Scope[]): string {
  return `<ul>${scopes.map((s) => `<li>${esc(describeScope(s))} <code>${esc(s)}</code></li>`).join('')}</ul>`;
}

export interface ViewContext {
  action: string;
  params: AuthorizeParams;
  csrfToken: string;
  clientName: string;
  teamName: string;
  scopes: readonly Scope[];
  redirectOrigin: string;
}

export function loginPage(ctx: ViewContext & { notice?: string; email?: string }): RenderedPage {
  return page(
    'Sign in',
    `<h1>Sign in to continue to ${esc(ctx.clientName)}</h1>
${ctx.notice ? `<p class="notice" role="alert">${esc(ctx.notice)}</p>` : ''}
<p class="muted">${esc(ctx.clientName)} asks for access to the team <strong>${esc(ctx.teamName)}</strong>:</p>
${scopeList(ctx.scopes)}
<form method="post" action="${esc(ctx.action)}">${hiddenFields(ctx.params, ctx.csrfToken)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(ctx.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="row"><button type="submit" name="action" value="deny" formnovalidate>Cancel</button>
<button class="primary" type="submit" name="action" value="login">Sign in</button></div></form>`,
    [ctx.redirectOrigin],
  );
}

export function consentPage(ctx: ViewContext & { userEmail: string }): RenderedPage {
  return page(
    'Authorize',
    `<h1>${esc(ctx.clientName)} wants to access your Finops Desk data</h1>
<p>It asks for access to the team <strong>${esc(ctx.teamName)}</strong>:</p>
${scopeList(ctx.scopes)}
<form method="post" action="${esc(ctx.action)}">${hiddenFields(ctx.params, ctx.csrfToken)}
<p class="muted">Signed in as <strong>${esc(ctx.userEmail)}</strong> ·
<button class="link" type="submit" name="action" value="switch">Use another account</button></p>
<div class="row"><button type="submit" name="action" value="deny">Deny</button>
<button class="primary" type="submit" name="action" value="approve">Approve</button></div></form>`,
    [ctx.redirectOrigin],
  );
}

export function errorPage(title: string, message: string): RenderedPage {
  return page(title, `<h1>${esc(title)}</h1><p class="notice" role="alert">${esc(message)}</p>`, []);
}
