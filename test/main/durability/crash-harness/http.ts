/**
 * One request of the harness's traffic, as sent, so that it can be sent again after a restart (the retry of a
 * request that was in flight when the server was killed, the replay of one that was answered).
 */
export interface HarnessRequest {
  method: 'POST' | 'PATCH';
  path: string;
  /** JSON body, or the raw text of an uploaded file with `contentType`. */
  body: unknown;
  contentType?: string;
  /** The Idempotency-Key header, when the request carries one. */
  idempotencyKey?: string;
}

export interface Answer {
  status: number;
  replayed: boolean;
  body: Record<string, unknown>;
}

/** The server went away before answering (killed): the request may or may not have committed. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
}

export async function send(base: string, key: string, req: HarnessRequest): Promise<Answer> {
  const raw = req.contentType !== undefined;
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${base}${req.path}`, {
      method: req.method,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': req.contentType ?? 'application/json',
        ...(req.idempotencyKey ? { 'idempotency-key': req.idempotencyKey } : {}),
      },
      body: raw ? String(req.body) : JSON.stringify(req.body),
    });
    text = await res.text();
  } catch (err) {
    throw new NoAnswer(String((err as Error).cause ?? err));
  }
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // A cut-off body is no answer either: the process died while writing it.
    throw new NoAnswer(`unparseable body (${text.length} bytes)`);
  }
  return { status: res.status, replayed: res.headers.get('idempotency-replayed') === 'true', body };
}

export async function get(base: string, key: string, path: string): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, replayed: false, body: (await res.json()) as Record<string, unknown> };
}
