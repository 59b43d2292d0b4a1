import fastJson from 'fast-json-stringify';
import { z } from 'zod';

type SerializerCompiler = Parameters<import('fastify').FastifyInstance['setSerializerCompiler']>[0];

/**
 * A response body that the compiled serializer wrote but the contract's zod schema refuses (a wrong type that
 * fast-json-stringify coerced, a value outside an enum, a malformed string). Only raised with `validate` (tests):
 * it becomes a 500 naming the route and the issues.
 */
export class ResponseContractViolation extends Error {
  override name = 'ResponseContractViolation';
  constructor(
    readonly route: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(`The response of ${route} does not match its contract: ${z.prettifyError(new z.ZodError([...issues]))}`);
  }
}

/**
 * Response serialization from the contract's zod schemas, compiled to fast-json-stringify through their JSON
 * Schema. It writes only the properties the contract declares (nothing extra can leak out) and fails on a missing
 * required one. It is the same in tests and in production, so what is tested is what ships; with `validate`
 * (tests: `validateResponses`) each body it wrote is parsed back and checked against the zod schema too, which a
 * deep check of every response costs too much CPU to do in production (~18 % of a 50-row list).
 *
 * A schema is compiled once however many routes and statuses answer with it (the Error payload serves every
 * route's 4xx: some 2,200 route responses share about 120 schemas), and in production only when a response first
 * needs it: compiling them all took most of the server's start-up (~1.3 s here) and held ~25 MB of generated code
 * that a desktop session mostly never runs (docs/decisions/0006). With `validate` every schema compiles when its
 * route registers, so a schema fast-json-stringify cannot take fails the tests at start-up, not on a first request.
 */
export function contractSerializerCompiler(options: { validate: boolean }): SerializerCompiler {
  const compiled = new WeakMap<z.ZodType, Stringify>();
  const compile = (zodSchema: z.ZodType): Stringify => {
    let stringify = compiled.get(zodSchema);
    if (!stringify) {
      const jsonSchema = z.toJSONSchema(zodSchema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
      stringify = fastJson(nullableAsFlag(unwrapRefs(jsonSchema)) as Parameters<typeof fastJson>[0]);
      compiled.set(zodSchema, stringify);
    }
    return stringify;
  };
  return ({ schema, method, url, httpStatus }) => {
    const zodSchema = schema as z.ZodType;
    if (!options.validate) {
      let stringify: Stringify | undefined;
      return (data: unknown) => {
        stringify ??= compile(zodSchema);
        return stringify(data);
      };
    }
    const stringify = compile(zodSchema);
    const route = `${method} ${url} ${httpStatus}`;
    return (data: unknown) => {
      const json = stringify(data);
      const checked = zodSchema.safeParse(JSON.parse(json));
      if (!checked.success) throw new ResponseContractViolation(route, checked.error.issues);
      return json;
    };
  };
}

type Stringify = (data: unknown) => string;

/**
 * zod writes a described use of a named or recursive schema as `{ allOf: [{ $ref }], description }`;
 * fast-json-stringify merges every allOf eagerly, so a recursive one (a JSON value inside itself) never ends. The
 * serializer needs only the reference: `{ $ref }`.
 */
function unwrapRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(unwrapRefs);
  if (!schema || typeof schema !== 'object') return schema;
  const { allOf, ...rest } = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[k] = unwrapRefs(v);
  if (Array.isArray(allOf) && allOf.length === 1 && typeof (allOf[0] as { $ref?: unknown })?.$ref === 'string') {
    out.$ref = (allOf[0] as { $ref: string }).$ref;
  } else if (allOf !== undefined) {
    out.allOf = unwrapRefs(allOf);
  }
  return out;
}

/**
 * zod writes a nullable value that JSON Schema cannot express as a type list (an integer, an enum, an object, a
 * string with a format) as `anyOf: [X, {type: 'null'}]`. fast-json-stringify serializes any anyOf by running a
 * validator on the value for each option, per value written; a customer read has two such fields and a transaction
 * page hundreds. Its own `nullable: true` keyword writes the same bytes with one `=== null` check, so the pair
 * becomes X with that flag. Options that are references stay as they are (their siblings are merged into the target
 * when it resolves). The contract's zod schemas, and so the OpenAPI document and the tests' response checks, are
 * untouched: this is the serializer's copy.
 */
export function nullableAsFlag(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsFlag);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = nullableAsFlag(v);
  const options = out.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return out;
  const isNull = (o: unknown) => !!o && typeof o === 'object' && (o as { type?: unknown }).type === 'null';
  const value = options.find((o) => !isNull(o)) as Record<string, unknown> | undefined;
  if (!value || !options.some(isNull) || typeof value.type !== 'string') return out;
  if (value.$ref !== undefined || value.anyOf || value.oneOf || value.allOf) return out;
  const { anyOf: _options, ...siblings } = out;
  // Inside an anyOf the serializer keeps (a reference's target), values are still checked by Ajv, whose `nullable`
  // needs null listed in an enum.
  const nullableEnum = Array.isArray(value.enum) ? { enum: [...value.enum, null] } : {};
  return { ...siblings, ...value, ...nullableEnum, nullable: true };
}
