import crypto from 'node:crypto';

/**
 * The OAuth server's secrets (schema: migrations/003-oauth.ts; design: docs/decisions/0030-oauth-authorization-server.md).
 *
 * Every secret is 256 random bits behind a prefix naming its kind, so a secret scanner (and our bearer resolver)
 * tells them apart at a glance; only SHA-256 hashes are stored (full-entropy secrets need no slow hash):
 *   client id `finops_ci_…` (public, stored as is)   client secret `finops_cs_…`
 *   authorization code `finops_ac_…`   access token `finops_at_…`   refresh token `finops_rt_…`
 */
export const CLIENT_ID_PREFIX = 'finops_ci_';
export const CLIENT_SECRET_PREFIX = 'finops_cs_';
export const CODE_PREFIX = 'finops_ac_';
export const ACCESS_TOKEN_PREFIX = 'finops_at_';
export const REFRESH_TOKEN_PREFIX = 'finops_rt_';

export const CODE_TTL_SECONDS = 5 * 60;
export const ACCESS_TOKEN_TTL_SECONDS = 2 * 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

const SECRET_PATTERN = /^finops_(cs|ac|at|rt)_[0-9a-f]{64}$/;

export function newSecret(prefix: string): string {
  return prefix + crypto.randomBytes(32).toString('hex');
}

export function hasShape(secret: string, prefix: string): boolean {
  return secret.startsWith(prefix) && SECRET_PATTERN.test(secret);
}

export const isoIn = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
