import type { FastifyRequest } from 'fastify';
import { REPLICA_HEADER } from '../../src-shared/contract/sync';

/**
 * Whether a request is a sync replica's push (docs/decisions/0140-sync-engine.md): its rounds mark every request
 * with `X-Finops-Sync`. A replica's record already went through its own creation rules where it was made, and
 * what it sends is a person's (or that replica's rules') decision: it is written with the provenance `sync`, which
 * local rules leave alone, and starts no creation rules here.
 */
export function isReplicaPush(request: FastifyRequest): boolean {
  return request.headers[REPLICA_HEADER] !== undefined;
}
