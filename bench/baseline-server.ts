/**
 * The baseline of the API benchmark: a bare fastify 5 app (no auth, no validation, no database) answering the
 * same routes with the same JSON bytes the real server produced. Ratios real/baseline measure what our layers
 * cost, independent of how fast or loaded this machine is at the moment.
 *
 * Usage: node --import tsx bench/baseline-server.ts PAYLOADS.json — prints its URL on stdout.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const payloads = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as { byId: string; page: string; created: string };
const app = Fastify({ logger: false });
const json = 'application/json; charset=utf-8';
app.get('/v1/customers/:id', async (_req, reply) => reply.type(json).send(payloads.byId));
app.get('/v1/customers', async (_req, reply) => reply.type(json).send(payloads.page));
app.post('/v1/customers', async (_req, reply) => reply.code(201).type(json).send(payloads.created));
app.listen({ host: '127.0.0.1', port: 0 }).then((address) => {
  process.stdout.write(`${address}\n`);
});
