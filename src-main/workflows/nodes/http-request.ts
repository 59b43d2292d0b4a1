import type { WorkflowNode } from '../../../src-shared/contract/workflow-definition';
import { httpTargetProblem } from '../effects';
import { renderJson, renderText } from '../templates';
import type { NodeImpl } from './types';

/**
 * Calls a host on the team's allow-list (its workflow settings; empty by default: HTTP nodes are off). The only node that reaches outside
 * the database, so the only one whose step can be cut short after its effect happened: it is retried after a crash
 * only when repeating it is harmless (GET, PUT, DELETE, or a receiver declared to honour the Idempotency-Key header
 * the call always carries). The call goes through the outbound policy (outbound/fetch.ts): the host's addresses are
 * checked when connecting, a redirect is followed (at most 3) only to a target on the allow-list and allowed by the
 * policy, and at most 1 MiB of the answer is read.
 */

type Of<K extends WorkflowNode['kind']> = Extract<WorkflowNode, { kind: K }>;

const MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 3;
const SAFE_TO_REPEAT = new Set(['GET', 'PUT', 'DELETE']);

export const httpRequest: NodeImpl<Of<'http_request'>> = {
  mode: 'external',
  idempotent: (node) => SAFE_TO_REPEAT.has(node.method) || node.idempotent,
  run: async (node, c) => {
    const url = renderText(node.url, c.run);
    const allowed = c.ports.httpAllowedHosts(c.db, c.teamId);
    const problem = httpTargetProblem(url, allowed);
    if (problem) return { kind: 'fail', message: problem };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(node.headers ?? {})) headers[k.toLowerCase()] = renderText(v, c.run);
    headers['idempotency-key'] = c.effectKey;
    let body: string | undefined;
    if (node.body !== undefined && node.method !== 'GET') {
      body = JSON.stringify(renderJson(node.body, c.run));
      headers['content-type'] ??= 'application/json';
    }
    let response: Awaited<ReturnType<typeof c.ports.fetch>>;
    let text: string;
    try {
      response = await c.ports.fetch(url, {
        method: node.method,
        headers,
        body,
        maxBytes: MAX_RESPONSE_BYTES,
        maxRedirects: MAX_REDIRECTS,
        checkUrl: (next) => httpTargetProblem(next.toString(), allowed),
        signal: AbortSignal.timeout(node.timeoutSeconds * 1000),
      });
      text = new TextDecoder().decode((await response.read({ truncate: true })).bytes);
    } catch (err) {
      const why = (err as Error).name === 'TimeoutError' ? `no answer within ${node.timeoutSeconds} s` : (err as Error).message;
      return { kind: 'fail', message: `${node.method} ${new URL(url).host} failed: ${why}` };
    }
    if (response.status >= 300) {
      return { kind: 'fail', message: `${node.method} ${new URL(url).host} answered HTTP ${response.status}` };
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return {
      kind: 'next',
      output: { status: response.status, body: text.slice(0, 4000) },
      ...(node.as ? { vars: { [node.as]: json } } : {}),
    };
  },
};
