/**
 * The local server's first-choice port: stable per data dir (the window's origin, so its storage, survives), and
 * the fall-back to another port when the OS will not give it (real listens on loopback; the server host's own).
 */
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortUnavailable, listenOnPreferredPort, PORT_RANGE, preferredPort } from '../../../src-main/desktop/preferred-port';
import { startServer } from '../../../src-main/server/start';
import { tmpDir } from '../../helpers/tmp';

describe('preferredPort', () => {
  it('is the same for one data dir at every launch, however the path is written', () => {
    expect(preferredPort('/home/a/.config/Finops Desk/data')).toBe(preferredPort('/home/a/.config/Finops Desk/x/../data'));
  });

  it('differs between data dirs and stays below the ephemeral ranges', () => {
    const ports = new Set(Array.from({ length: 200 }, (_, i) => preferredPort(`/data/${i}`)));
    expect(ports.size).toBeGreaterThan(190);
    for (const p of ports) {
      expect(p).toBeGreaterThanOrEqual(PORT_RANGE.first);
      expect(p).toBeLessThan(32768);
    }
  });
});

/** A Node listen error as Windows answers one on a port inside a range Hyper-V, WSL or Docker keeps. */
function reservedPortError(port: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`listen EACCES: permission denied 127.0.0.1:${port}`), {
    code: 'EACCES',
    errno: -4092,
    syscall: 'listen',
    address: '127.0.0.1',
    port,
  });
}

function listenNet(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.end('hello'));
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;

function hello(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    net
      .connect(port, '127.0.0.1')
      .on('data', (d) => {
        got += d;
      })
      .on('end', () => resolve(got))
      .on('error', reject);
  });
}

describe('listenOnPreferredPort', () => {
  const open: net.Server[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await new Promise((r) => s.close(r));
  });

  it('moves to a free port when the preferred one is reserved (EACCES, as Windows answers) and serves there', async () => {
    const dir = tmpDir();
    const preferred = preferredPort(dir);
    const tried: number[] = [];
    const fallbacks: string[] = [];
    const server = await listenOnPreferredPort(
      preferred,
      (port) => {
        tried.push(port);
        if (port === preferred) return Promise.reject(reservedPortError(port));
        return startServer({
          dataDir: path.join(dir, 'data'),
          logLevel: 'silent',
          workflows: false,
          invoiceJobs: false,
          sync: false,
        });
      },
      (err) => fallbacks.push(err.code ?? ''),
    );
    try {
      expect(tried).toEqual([preferred, 0]);
      expect(fallbacks).toEqual(['EACCES']);
      const port = Number(new URL(server.url).port);
      expect(port).not.toBe(preferred);
      const res = await fetch(`${server.url}/v1/health`);
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('moves to a free port when another program holds the preferred one (EADDRINUSE, a real listen)', async () => {
    const holder = await listenNet(0);
    open.push(holder);
    const server = await listenOnPreferredPort(portOf(holder), listenNet);
    open.push(server);
    expect(portOf(server)).not.toBe(portOf(holder));
    expect(await hello(portOf(server))).toBe('hello');
  });

  it('keeps the preferred port when it is free, and throws other failures and a failure on port 0', async () => {
    const probe = await listenNet(0);
    const free = portOf(probe);
    await new Promise((r) => probe.close(r));
    const server = await listenOnPreferredPort(free, listenNet);
    open.push(server);
    expect(portOf(server)).toBe(free);

    const notMine = (port: number) =>
      new Promise<net.Server>((resolve, reject) => {
        const s = net.createServer();
        s.once('error', reject);
        s.listen(port, '192.0.2.1', () => resolve(s)); // TEST-NET-1: not an address of this machine
      });
    await expect(listenOnPreferredPort(free, notMine)).rejects.toMatchObject({ code: 'EADDRNOTAVAIL' });
    let calls = 0;
    const refused = (port: number) => {
      calls++;
      return Promise.reject(reservedPortError(port));
    };
    await expect(listenOnPreferredPort(0, refused)).rejects.toMatchObject({ code: 'EACCES' });
    expect(calls).toBe(1);
  });

  it('takes EADDRINUSE and EACCES as an unavailable port, nothing else', () => {
    expect(isPortUnavailable(reservedPortError(21000))).toBe(true);
    expect(isPortUnavailable(Object.assign(new Error('in use'), { code: 'EADDRINUSE' }))).toBe(true);
    expect(isPortUnavailable(Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL' }))).toBe(false);
    expect(isPortUnavailable(new Error('no code'))).toBe(false);
    expect(isPortUnavailable(null)).toBe(false);
  });
});
