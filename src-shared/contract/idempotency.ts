/**
 * Set on the 409 a retried Idempotency-Key gets when its first request was carried out but its answer was lost
 * (the server stopped between the commit and the stored answer, docs/decisions/0189-crash-harness.md): the change
 * is made, and a client that sent it — the sync engine — takes it as done instead of as a refusal.
 */
export const IDEMPOTENCY_OUTCOME_HEADER = 'Idempotency-Outcome';
export const CARRIED_OUT = 'carried-out';
