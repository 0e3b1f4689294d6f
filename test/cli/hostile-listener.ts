// The place a hostile target points to: a server on another loopback address (127.0.0.2) or another
// port that records every request it receives, headers and body, so a test can show that nothing
// (above all no credential) reached it. Shared by the conformance and the k6 hostile tests.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Heard {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Listener {
  /** `http://host:port` */
  origin: string;
  heard: Heard[];
  close(): Promise<void>;
}

/**
 * Listens on host (127.0.0.2 by default: another loopback address). Whatever arrives is recorded;
 * the answer is what a thief would want believed: a 200 with a token of its own.
 */
export async function startListener(
  host = '127.0.0.2',
  token = 'listener-issued-token-0123456789',
): Promise<Listener> {
  const heard: Heard[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      // Recorded up to 1 MiB: enough to find a secret, never a memory problem of its own.
      if (chunks.reduce((n, b) => n + b.length, 0) < 1 << 20) chunks.push(c);
    });
    req.on('end', () => {
      heard.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600, data: [] }));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    heard,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
