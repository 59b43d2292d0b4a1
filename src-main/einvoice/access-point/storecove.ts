import { checkPeppolId, peppolScheme } from '../../../src-shared/validation/peppol-schemes';
import { type OutboundResponse, outboundFetch } from '../../outbound/fetch';

const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The client of Storecove's document submission (`POST /document_submissions` of its API v2; the published OpenAPI
 * document's subset is test/fixtures/storecove/, and docs/decisions/0162-peppol-access-point.md says why this
 * provider and these fields). Our UBL is sent as it is (`rawDocumentData`, base64, parsed by Storecove as UBL —
 * the document says only `parse: true` is supported), routed by the customer's Peppol participant id, on behalf of
 * the team's legal entity, with the `idempotencyGuid` the hand-off fixed when it was written.
 */

export interface Submission {
  baseUrl: string;
  apiKey: string;
  legalEntityId: number;
  idempotencyGuid: string;
  /** The customer's Peppol participant id, `icd:identifier`. */
  recipient: string;
  ubl: Buffer;
  timeoutMs?: number;
}

export type SubmitResult =
  /** 200: the provider took it; `guid` is its submission id. */
  | { kind: 'accepted'; guid: string | null }
  /** A 4xx: refused for good, with the provider's words. `duplicate`: the idempotency GUID was used already. */
  | { kind: 'refused'; status: number; message: string; duplicate: boolean }
  /** Not reached, no answer in time, a 5xx or 429: try again later. */
  | { kind: 'unavailable'; message: string };

/**
 * Storecove's routing scheme of a participant id: the Peppol scheme id of its ICD ("0208" → "BE:EN", "9930" →
 * "DE:VAT"), as Storecove's receiver identifier list names them; an ICD the code list lacks is passed as it is.
 */
export function storecoveRouting(recipient: string): { scheme: string; id: string } {
  const parsed = checkPeppolId(recipient);
  if (!parsed.ok) throw new Error(`Not a Peppol participant id (${parsed.reason}): ${recipient}`);
  return { scheme: peppolScheme(parsed.icd)?.schemeId ?? parsed.icd, id: parsed.identifier };
}

export function documentSubmission(s: Omit<Submission, 'baseUrl' | 'apiKey' | 'timeoutMs'>) {
  return {
    legalEntityId: s.legalEntityId,
    idempotencyGuid: s.idempotencyGuid,
    routing: { eIdentifiers: [storecoveRouting(s.recipient)] },
    document: {
      documentType: 'invoice',
      rawDocumentData: { document: s.ubl.toString('base64'), parse: true, parseStrategy: 'ubl' },
    },
  };
}

interface ErrorModel {
  source?: string;
  details?: string;
}

/** The provider's words: its 422 is a list of `{source, details}`; other answers are shown as they come. */
function refusalMessage(status: number, body: string): { message: string; duplicate: boolean } {
  let errors: ErrorModel[] = [];
  try {
    const parsed = JSON.parse(body) as unknown;
    if (Array.isArray(parsed)) errors = parsed as ErrorModel[];
  } catch {
    // Not JSON: the text below.
  }
  const listed = errors
    .filter((e) => e && typeof e === 'object')
    .map((e) => [e.source, e.details].filter(Boolean).join(': '))
    .filter(Boolean);
  const text = listed.length ? listed.join('; ') : body.trim().slice(0, 500) || `HTTP ${status}`;
  return {
    message: `Storecove refused the e-invoice (${status}): ${text}`,
    duplicate: errors.some((e) => e?.source === 'idempotencyGuid'),
  };
}

/**
 * Sends the submission through the outbound policy (outbound/fetch.ts): the access point's addresses are checked when
 * connecting, a redirect is not followed (the API key goes nowhere else), and at most 1 MiB of the answer is read.
 */
export async function submitDocument(s: Submission): Promise<SubmitResult> {
  const url = `${s.baseUrl.replace(/\/+$/, '')}/document_submissions`;
  let res: OutboundResponse;
  let body: string;
  try {
    res = await outboundFetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(documentSubmission(s)),
      maxBytes: MAX_ANSWER_BYTES,
      signal: AbortSignal.timeout(s.timeoutMs ?? 60_000),
    });
    body = new TextDecoder().decode((await res.read({ truncate: true })).bytes);
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { kind: 'unavailable', message: `The access point was not reached: ${cause ?? (err as Error).message}` };
  }
  if (res.ok) {
    let guid: string | null = null;
    try {
      const parsed = JSON.parse(body) as { guid?: unknown };
      if (typeof parsed.guid === 'string' && parsed.guid) guid = parsed.guid;
    } catch {
      // A success without the documented body: handed over, its id unknown.
    }
    return { kind: 'accepted', guid };
  }
  if (res.status >= 500 || res.status === 429 || res.status === 408) {
    return { kind: 'unavailable', message: `The access point answered ${res.status}: ${body.trim().slice(0, 300)}` };
  }
  return { kind: 'refused', status: res.status, ...refusalMessage(res.status, body) };
}
