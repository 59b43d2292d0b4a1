import fastJson from 'fast-json-stringify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = Parameters<import('fastify').FastifyInstance['setSerializerCompiler']>[0];

/**
 * Response serialization from the contract's zod schemas, compiled to fast-json-stringify through their JSON
 * Schema. It writes only the properties the contract declares (nothing extra can leak out) and fails on a missing
 * required one. The zod encoder of fastify-type-provider-zod validates every response deeply instead; that cost
 * ~18 % of a 50-row list's CPU, so it runs where bugs are hunted (tests: `validateResponses`), not in production.
 */
export function contractSerializerCompiler(options: { validate: boolean }): SerializerCompiler {
  if (options.validate) return createSerializerCompiler({}) as SerializerCompiler;
  return ({ schema }) => {
    const jsonSchema = z.toJSONSchema(schema as z.ZodType, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
    const stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
    return (data: unknown) => stringify(data);
  };
}
