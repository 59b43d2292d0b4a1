import type { FastifyReply } from 'fastify';
import { RELAYED_HEADER } from '../../src-shared/contract/payment-provider';
import type { Db } from '../store/db';
import type { ServerCredentialSources } from '../sync/credentials';
import { type RelayOutcome, type RelayRequest, relayToRemote } from '../sync/relay';
import { conflict } from './errors';

/**
 * Routes whose work only the team's sync remote can do (a payment provider, a bank-data provider): each call is sent
 * on to the remote (sync/relay.ts) and answered as the remote answered it — status, body, a redirect's target —
 * marked with `X-Finops-Relayed-To`. Without a remote, or when it cannot be reached or refuses the credential, the
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
      reply.header(RELAYED_HEADER, outcome.remote.baseUrl).code(outcome.status);
      if (outcome.location) reply.header('location', outcome.location);
      if (outcome.status === 204) return reply.send();
      const body = outcome.body;
      return reply.send(body && typeof body === 'object' && !Array.isArray(body) ? body : { answer: body });
    },
  };
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
