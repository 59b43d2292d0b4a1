import {
  ACCOUNT_THROTTLE,
  ADDRESS_THROTTLE,
  accountKey,
  addressKey,
  clearSignInFailures,
  recordSignInFailure,
  signInWait,
} from '../../store/auth/sessions';
import type { Db } from '../../store/db';

/**
 * The one policy against password guessing, for every place a password is typed: the web sign-in
 * (`POST /app/session`) and the OAuth authorize page (docs/decisions/0110, 0179). Failures are counted per account
 * (the e-mail typed) and per address (an IPv6 address by its /64, which one subscriber holds whole), in the
 * database so every process sees them; past the free tries each key waits, doubling; and at most one check per
 * account and four per address run at once (guessing in parallel waits too).
 */
export type Attempt<T> = { kind: 'wait'; seconds: number } | { kind: 'done'; value: T };

const MAX_IN_FLIGHT_PER_ACCOUNT = 1;
const MAX_IN_FLIGHT_PER_ADDRESS = 4;

export interface SignInThrottle {
  /**
   * Runs `check` (the password comparison) unless the account or the address must wait; `ok(value)` says whether it
   * succeeded, so failures are counted and a success clears its account.
   */
  attempt<T>(email: string, ip: string, check: () => Promise<T>, ok: (value: T) => boolean): Promise<Attempt<T>>;
}

export function signInThrottle(db: Db, clock: () => number = Date.now): SignInThrottle {
  const inFlight = new Map<string, number>();
  const enter = (key: string, max: number) => {
    const n = inFlight.get(key) ?? 0;
    if (n >= max) return false;
    inFlight.set(key, n + 1);
    return true;
  };
  const leave = (key: string) => {
    const n = (inFlight.get(key) ?? 1) - 1;
    if (n <= 0) inFlight.delete(key);
    else inFlight.set(key, n);
  };
  return {
    async attempt<T>(email: string, ip: string, check: () => Promise<T>, ok: (value: T) => boolean): Promise<Attempt<T>> {
      const account = accountKey(email);
      const address = addressKey(ip);
      const now = clock();
      const wait = Math.max(signInWait(db, account, ACCOUNT_THROTTLE, now), signInWait(db, address, ADDRESS_THROTTLE, now));
      if (wait > 0) return { kind: 'wait', seconds: wait };
      if (!enter(account, MAX_IN_FLIGHT_PER_ACCOUNT)) return { kind: 'wait', seconds: 1 };
      if (!enter(address, MAX_IN_FLIGHT_PER_ADDRESS)) {
        leave(account);
        return { kind: 'wait', seconds: 1 };
      }
      let value: T;
      try {
        value = await check();
      } finally {
        leave(account);
        leave(address);
      }
      if (ok(value)) clearSignInFailures(db, account);
      else recordSignInFailure(db, [account, address], clock());
      return { kind: 'done', value };
    },
  };
}
