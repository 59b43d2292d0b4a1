/**
 * A bare fastify 5 app (no auth, no validation, no database) answering GET requests with recorded bodies, matched by
 * the exact URL (path and query): the baseline of the HTTP benchmarks that replay a fixed set of URLs.
 *
 * Usage: node --import tsx bench/baseline-static.ts PAYLOADS.json — a JSON object { "<url>": "<body>" }; prints its
 * URL on stdout.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const payloads = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, string>;
const app = Fastify({ logger: false });
const json = 'application/json; charset=utf-8';
app.get('/*', async (request, reply) => {
  const body = payloads[request.url];
  return body === undefined ? reply.code(404).send() : reply.type(json).send(body);
});
app.listen({ host: '127.0.0.1', port: 0 }).then((address) => {
  process.stdout.write(`${address}\n`);
});
