/**
 * Which certificates outbound TLS trusts (docs/decisions/0195): a CA made here with the openssl CLI signs the
 * certificate of a real HTTPS server on 127.0.0.1 (for the names sync.example and 127.0.0.1). Each case runs
 * outboundFetch in a process of its own (fetch-child.ts), since trust is fixed when a process starts.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../../helpers/tmp';
import { type ConnectProxy, startConnectProxy } from './connect-proxy';

const ROOT = path.resolve(__dirname, '../../..');
const CA_VARS = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

let dir = '';
let caFile = '';
let server: https.Server;
let port = 0;
let proxy: ConnectProxy;

beforeAll(async () => {
  dir = tmpDir('finops-trust-', 'file');
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Finops Test CA');
  run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=sync.example');
  fs.writeFileSync(path.join(dir, 'leaf.ext'), 'subjectAltName=DNS:sync.example,IP:127.0.0.1\n');
  run(
    ...['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-days', '2'],
    ...['-extfile', 'leaf.ext', '-out', 'leaf.pem'],
  );
  caFile = path.join(dir, 'ca.pem');
  server = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'leaf.key')), cert: fs.readFileSync(path.join(dir, 'leaf.pem')) },
    (_req, res) => res.end('hello over tls'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  proxy = await startConnectProxy();
});
afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** outboundFetch in a fresh process with only the given trust and proxy variables (the operator's allowance kept). */
async function fetchInChild(url: string, env: NodeJS.ProcessEnv, resolve?: string) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const n of [...CA_VARS, ...PROXY_VARS]) delete childEnv[n];
  const args = ['--import', 'tsx', path.join(__dirname, 'fetch-child.ts'), url, ...(resolve ? [resolve] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: ROOT,
    env: { ...childEnv, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { status?: number; text?: string; error?: string; message?: string };
}

describe('outbound TLS trust', () => {
  it('refuses a certificate from a CA nobody configured, saying what would cure it', async () => {
    const got = await fetchInChild(`https://127.0.0.1:${port}/`, {});
    expect(got.error).toBe('OutboundUnreachable');
    expect(got.message).toMatch(
      new RegExp(
        `^127\\.0\\.0\\.1:${port} could not be reached: .*issuer is not trusted here: add its CA to the system's certificate store or to NODE_EXTRA_CA_CERTS`,
      ),
    );
  });

  it('trusts a CA named in NODE_EXTRA_CA_CERTS', async () => {
    expect(await fetchInChild(`https://127.0.0.1:${port}/`, { NODE_EXTRA_CA_CERTS: caFile })).toEqual({
      status: 200,
      text: 'hello over tls',
    });
  });

  it("trusts a CA in the system's store (OpenSSL's file on Linux, here pointed at by SSL_CERT_FILE)", async () => {
    const empty = tmpDir('finops-trust-dir-');
    expect(await fetchInChild(`https://127.0.0.1:${port}/`, { SSL_CERT_FILE: caFile, SSL_CERT_DIR: empty })).toEqual({
      status: 200,
      text: 'hello over tls',
    });
  });

  it('through the proxy: the tunnel goes to the checked address and TLS is verified against the name', async () => {
    proxy.tunnels.length = 0;
    const url = `https://sync.example:${port}/`;
    const env = { NODE_EXTRA_CA_CERTS: caFile, HTTPS_PROXY: proxy.url };
    expect(await fetchInChild(url, env, 'sync.example=127.0.0.1')).toEqual({ status: 200, text: 'hello over tls' });
    expect(proxy.tunnels).toEqual([`127.0.0.1:${port}`]);
    // A name the certificate does not carry fails inside the tunnel as it would directly.
    const other = await fetchInChild(`https://files.example:${port}/`, env, 'files.example=127.0.0.1');
    expect(other.error).toBe('OutboundUnreachable');
    expect(other.message).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate's altnames/);
    expect(proxy.tunnels).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
  });

  it('an https:// proxy is reached over TLS, its certificate trusted the same way', async () => {
    const tls = { key: fs.readFileSync(path.join(dir, 'leaf.key')), cert: fs.readFileSync(path.join(dir, 'leaf.pem')) };
    const secure = await startConnectProxy({ tls });
    try {
      const url = `https://sync.example:${port}/`;
      const trusted = await fetchInChild(url, { NODE_EXTRA_CA_CERTS: caFile, HTTPS_PROXY: secure.url }, 'sync.example=127.0.0.1');
      expect(trusted).toEqual({ status: 200, text: 'hello over tls' });
      expect(secure.tunnels).toEqual([`127.0.0.1:${port}`]);
      const refused = await fetchInChild(url, { HTTPS_PROXY: secure.url }, 'sync.example=127.0.0.1');
      expect(refused.error).toBe('ProxyFailed');
      expect(refused.message).toMatch(
        new RegExp(`^the proxy ${secure.url} \\(from \\$HTTPS_PROXY\\) did not answer: .*certificate`),
      );
      expect(secure.tunnels).toHaveLength(1);
    } finally {
      await secure.close();
    }
  });
});
