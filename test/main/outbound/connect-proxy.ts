import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

/**
 * A real forward proxy on 127.0.0.1 (http, or https with `tls`) that answers CONNECT only (as a company proxy does for tunnels): it records each
 * request line and Proxy-Authorization, asks for credentials when `credentials` is set (407 without them), and
 * otherwise opens the TCP connection named in the line and pipes both ways.
 */
export interface ConnectProxy {
  url: string;
  /** The CONNECT targets asked for, in order (`127.0.0.1:4100`). */
  tunnels: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(
  options: { credentials?: string; tls?: { key: Buffer; cert: Buffer } } = {},
): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const refuse: http.RequestListener = (_req, res) => res.writeHead(405).end('CONNECT only');
  // With `tls`, the proxy itself speaks TLS (an https:// proxy URL).
  const server = options.tls ? https.createServer(options.tls, refuse) : http.createServer(refuse);
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => {});
    const expected = options.credentials && `Basic ${Buffer.from(options.credentials).toString('base64')}`;
    if (expected && req.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n');
      return;
    }
    tunnels.push(req.url ?? '');
    const { hostname, port } = new URL(`http://${req.url}`);
    const upstream = net.connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A URL of a proxy that is down: a port that was listened on and closed. */
export async function downProxyUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
