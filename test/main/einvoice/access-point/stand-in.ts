import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { PEPPOL_SCHEMES } from '../../../../src-shared/validation/peppol-schemes';

/**
 * A stand-in for Storecove's API v2 on loopback (no access point is reachable from here): `POST
 * /api/v2/document_submissions` as its published OpenAPI document describes it (test/fixtures/storecove/). Every
 * request is validated against the document's own `DocumentSubmission` schema — closed here (no property the schema
 * does not name, so a misspelt field cannot pass unnoticed) — and against what its descriptions say: a Bearer key,
 * the legal entity, `idempotencyGuid` processed once (a second use is 422), only `parse: true` supported. The raw
 * document must be a UBL Invoice the network would route: Peppol BIS or XRechnung customization, and the buyer's
 * electronic address (BT-49) the participant the routing names. Answers: 200 `DocumentSubmissionResult`, 401, or
 * 422 with a list of `ErrorModel`.
 */

const FIXTURE = path.join(__dirname, '../../../fixtures/storecove/storecove-document-submissions.openapi.json');
const UBL_INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';

type JsonSchema = { [k: string]: unknown };

/** Every object schema with named properties takes only those. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]));
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function schemaValidator() {
  const doc = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { components: { schemas: JsonSchema } };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'storecove', components: { schemas: closed(doc.components.schemas) } });
  const validate = ajv.getSchema('storecove#/components/schemas/DocumentSubmission');
  if (!validate) throw new Error('DocumentSubmission is not in the fixture');
  return validate;
}

export interface Submission {
  guid: string;
  body: {
    legalEntityId: number;
    idempotencyGuid: string;
    routing: { eIdentifiers: { scheme: string; id: string }[] };
    document: { documentType: string; rawDocumentData: { document: string; parse: boolean; parseStrategy: string } };
  };
  ubl: string;
}

export interface StandIn {
  /** e.g. http://127.0.0.1:PORT/api/v2 — the base URL to configure. */
  baseUrl: string;
  /** Accepted submissions, in order. */
  submissions: Submission[];
  /** Every request and its answer status. */
  requests: { status: number; authorization: string | undefined; errors: unknown[] }[];
  /** The next answers, before any check (a provider outage: 503). */
  answerNext(status: number, body: unknown, times?: number): void;
  /** Stops listening (the access point is down); `start` listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startStandIn(options: { apiKey: string; legalEntityId: number }): Promise<StandIn> {
  const validate = schemaValidator();
  const xml = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, attributeNamePrefix: '@', parseTagValue: false });
  const schemeIcd = new Map(PEPPOL_SCHEMES.map((s) => [s.schemeId, s.icd]));
  const used = new Set<string>();
  const forced: { status: number; body: unknown }[] = [];
  let server: http.Server | undefined;
  let port = 0;

  const check = (body: Submission['body']): { errors: { source: string; details: string }[]; ubl?: string } => {
    if (!validate(body)) {
      return {
        errors: (validate.errors ?? []).map((e) => ({
          source: e.instancePath || '/',
          details: `${e.message}${e.params && 'additionalProperty' in e.params ? `: ${e.params.additionalProperty}` : ''}`,
        })),
      };
    }
    const errors: { source: string; details: string }[] = [];
    if (body.legalEntityId !== options.legalEntityId) errors.push({ source: 'legalEntityId', details: 'unknown legal entity' });
    if (!body.idempotencyGuid) errors.push({ source: 'idempotencyGuid', details: 'missing (the stand-in requires it)' });
    else if (used.has(body.idempotencyGuid)) {
      return { errors: [{ source: 'idempotencyGuid', details: 'this idempotencyGuid has already been processed' }] };
    }
    const raw = body.document?.rawDocumentData;
    if (body.document?.documentType !== 'invoice' || !raw) errors.push({ source: 'document', details: 'expected a raw invoice' });
    if (raw && raw.parse !== true)
      errors.push({ source: 'document.rawDocumentData.parse', details: 'only parse == true is supported' });
    const route = body.routing?.eIdentifiers?.[0];
    if (!route) errors.push({ source: 'routing', details: 'no eIdentifiers' });
    if (errors.length || !raw || !route) return { errors };
    const ubl = Buffer.from(raw.document, 'base64').toString('utf8');
    const inv = xml.parse(ubl)?.Invoice;
    // The root is an Invoice element in UBL's Invoice-2 namespace, with or without a prefix.
    const root = /<(?:([A-Za-z_][\w.-]*):)?Invoice[\s>]/.exec(ubl.replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, ''));
    const declared = root && new RegExp(`xmlns${root[1] ? `:${root[1]}` : ''}="${UBL_INVOICE_NS}"`).test(ubl);
    if (!inv || !declared) return { errors: [{ source: 'document', details: 'not a UBL 2.1 Invoice' }] };
    const customization = String(inv.CustomizationID ?? '');
    if (
      !/urn:cen\.eu:en16931:2017#compliant#urn:(fdc:peppol\.eu:2017:poacc:billing:3\.0|xeinkauf\.de:kosit:xrechnung_3\.\d+)/.test(
        customization,
      )
    ) {
      errors.push({ source: 'document', details: `customization ${customization} is not routed on Peppol` });
    }
    const endpoint = inv.AccountingCustomerParty?.Party?.EndpointID;
    const endpointIcd = endpoint?.['@schemeID'];
    const endpointId = String(endpoint?.['#text'] ?? '');
    if (schemeIcd.get(route.scheme) !== endpointIcd || endpointId.toLowerCase() !== route.id.toLowerCase()) {
      errors.push({
        source: 'routing',
        details: `routed to ${route.scheme}:${route.id}, the buyer is ${endpointIcd}:${endpointId}`,
      });
    }
    return { errors, ubl };
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, text: string) => {
    const answer = (status: number, body: unknown, errors: unknown[] = []) => {
      standIn.requests.push({ status, authorization: req.headers.authorization, errors });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const next = forced.shift();
    if (next) return answer(next.status, next.body);
    if (req.method !== 'POST' || req.url !== '/api/v2/document_submissions') return answer(404, { error: 'not found' });
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) return answer(401, { error: 'Unauthorized' });
    if (!String(req.headers['content-type']).startsWith('application/json')) return answer(415, { error: 'json only' });
    let body: Submission['body'];
    try {
      body = JSON.parse(text);
    } catch {
      return answer(422, [{ source: 'body', details: 'not JSON' }]);
    }
    const { errors, ubl } = check(body);
    if (errors.length || !ubl) return answer(422, errors, errors);
    used.add(body.idempotencyGuid);
    const guid = crypto.randomUUID();
    standIn.submissions.push({ guid, body, ubl });
    answer(200, { guid });
  };

  const standIn: StandIn = {
    baseUrl: '',
    submissions: [],
    requests: [],
    answerNext(status, body, times = 1) {
      for (let i = 0; i < times; i++) forced.push({ status, body });
    },
    async start() {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      standIn.baseUrl = `http://127.0.0.1:${port}/api/v2`;
    },
    async stop() {
      const s = server;
      server = undefined;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await standIn.start();
  return standIn;
}
