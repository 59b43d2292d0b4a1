import http from 'node:http';
import type { FastifyReply } from 'fastify';
import { RELAYED_HEADER } from '../../src-shared/contract/payment-provider';
import type { Db } from '../store/db';
import type { ServerCredentialSources } from '../sync/credentials';
import { type RelayOutcome, type RelayRequest, relayToRemote } from '../sync/relay';
import { conflict } from './errors';

/**
 * Routes whose work only the team's sync remote can do (a payment provider, a bank-data provider): each call is sent
 * on to the remote (sync/relay.ts) and answered as the remote answered it — status, body, a redirect's target —
 * marked with `X-Finops-Relayed-To`. A redirect's target is resolved against the remote and passed on only as an
 * absolute http(s) URL without credentials (else 502); an error the remote wrote in another shape is answered in
 * the spec's error payload with the remote's status (its 404 is this server's 404). Without a remote, or when it cannot be reached or refuses the credential, the
 * answer is 409 with `notConnected` as its message and the reason as its description: never a success not had.
 */
export type Answered = Extract<RelayOutcome, { kind: 'answered' }>;

export interface Relayer {
  /** Sends the call on; throws the 409 "not connected" with the reason when it cannot. */
  relayed(teamId: string, request: RelayRequest): Promise<Answered>;
  /** The remote's answer as it came (an object body; anything else wrapped as `answer`). */
  answer(reply: FastifyReply, outcome: Answered): FastifyReply;
}

/** `notConnected`: the message of the 409; `noRemote`: its description when the team has no remote. */
export function relayer(db: Db, sources: ServerCredentialSources, notConnected: string, noRemote?: string): Relayer {
  return {
    async relayed(teamId, request) {
      const outcome = await relayToRemote(db, teamId, request, sources, noRemote);
      if (outcome.kind === 'offline') throw conflict(notConnected, outcome.reason);
      return outcome;
    },
    answer(reply, outcome) {
      reply.header(RELAYED_HEADER, outcome.remote.baseUrl);
      const redirect = outcome.status >= 300 && outcome.status < 400;
      const location = outcome.location === null ? undefined : passableLocation(outcome.location, outcome.remote.baseUrl);
      if (redirect && outcome.status !== 304 && !location) {
        // A redirect whose target cannot be handed to a client as it is (not http(s), credentials in it): the
        // remote's answer is unusable, said as a gateway error.
        return reply
          .code(502)
          .send(errorBody(502, `The remote ${outcome.remote.baseUrl} redirected to a target that is not passed on`));
      }
      reply.code(outcome.status);
      if (location) reply.header('location', location);
      if (outcome.status === 204) return reply.send();
      const body = outcome.body;
      const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
      // An error is answered in the spec's payload whatever the remote wrote (its text becomes the description).
      if (outcome.status >= 400 && !(isObject && typeof (body as { error?: unknown }).error === 'string')) {
        const text = typeof body === 'string' ? body.slice(0, 500) : undefined;
        return reply.send(errorBody(outcome.status, `The remote answered ${outcome.status}`, text || undefined));
      }
      return reply.send(isObject ? body : { answer: body });
    },
  };
}

function errorBody(status: number, message: string, description?: string) {
  return { error: http.STATUS_CODES[status] ?? 'Error', message, ...(description ? { description } : {}) };
}

/**
 * A remote's Location as it may go to this server's client: resolved against the remote's URL (a relative one names
 * the remote, not this server), and only an http(s) URL without credentials in it; undefined otherwise.
 */
export function passableLocation(location: string, remoteBaseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(location, remoteBaseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  return url.toString();
}

/** The query's parameters as given (repeated ones and other shapes are not the provider's). */
export function stringsOf(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** The client's Idempotency-Key travels on: a retry is the same call at the remote too. */
export function keyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const key = headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}
