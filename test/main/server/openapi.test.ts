import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApi } from '../../helpers/api';

/** The OpenAPI document (src-main/server/openapi.ts): whole, valid, and saying what each route takes. */

type Schema = Record<string, unknown>;
interface Operation {
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  parameters?: { in: string; name: string }[];
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

let doc: Doc;
beforeAll(async () => {
  const api = await makeTestApi({}, 'file');
  doc = (await api.call('GET', '/v1/openapi.json')).json() as Doc;
});

function refsIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.push(v);
      else refsIn(v, into);
    }
  }
  return into;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document whose every reference resolves', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // Validates against the OpenAPI 3.1 schema and dereferences every $ref (a missing target throws).
    const parser = new SwaggerParser();
    const parsed = (await parser.validate(structuredClone(doc) as never)) as unknown as Doc;
    expect(Object.keys(parsed.paths).length).toBeGreaterThan(100);
    // Recursive schemas (rule conditions, JSON values) stay references to themselves.
    expect(parser.$refs.circular).toBe(true);
  });

  it('emits every named schema the operations use, and only those', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(expect.arrayContaining(['Error', 'Customer', 'Invoice', 'Transaction', 'RuleCondition', 'JsonValue']));
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(1000);
    const targets = new Set(refs.map((r) => r.replace('#/components/schemas/', '')));
    expect(refs.filter((r) => !r.startsWith('#/components/schemas/'))).toEqual([]);
    expect([...targets].filter((t) => !(t in doc.components.schemas))).toEqual([]);
    expect(names.filter((n) => !targets.has(n))).toEqual([]);
    // A recursive schema refers to itself by name (zod would otherwise leave a `__shared` pointer nobody can follow).
    expect(JSON.stringify(doc.components.schemas.RuleCondition)).toContain('"#/components/schemas/RuleCondition"');
  });

  it.each(['/v1/documents', '/v1/inbox', '/v1/imports/uploads'])('describes %s as the uploads it takes', (path) => {
    const op = doc.paths[path]!.post!;
    const content = op.requestBody!.content;
    const multipart = content['multipart/form-data']!.schema;
    expect(multipart.required).toEqual(['file']);
    expect((multipart.properties as Record<string, Schema>).file).toMatchObject({ type: 'string', format: 'binary' });
    const bare =
      path === '/v1/imports/uploads' ? ['text/csv', 'application/octet-stream'] : ['application/pdf', 'image/png', 'image/jpeg'];
    for (const type of bare) expect(content[type]!.schema, type).toMatchObject({ type: 'string', format: 'binary' });
    // Only the JSON form carries the file as base64 `content`.
    for (const [type, media] of Object.entries(content)) {
      expect(JSON.stringify(media.schema).includes('"content"'), type).toBe(type === 'application/json');
    }
    expect(op.parameters?.some((p) => p.in === 'header' && p.name === 'X-Filename')).toBe(true);
  });

  it('says which bodies may be left out', () => {
    expect(doc.paths['/v1/invoices/{id}/send']!.post!.requestBody!.required).toBe(false);
    expect(doc.paths['/v1/invoices/{id}/remind']!.post!.requestBody!.required).toBe(false);
    expect(doc.paths['/v1/tags']!.post!.requestBody!.required).toBe(true);
  });
});
