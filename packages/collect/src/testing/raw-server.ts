/** A loopback TCP server (port 0) whose HTTP answers are written byte for byte, for the load engine's tests. */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RawServer {
  port: number;
  /** Connections accepted so far. */
  connections: () => number;
  /** Request heads received so far, in order. */
  heads: string[];
  close: () => Promise<void>;
}

/** A server that calls `answer` with each whole request (head and Content-Length body), its socket and its index among all requests. */
export async function rawServer(answer: (socket: net.Socket, index: number) => void): Promise<RawServer> {
  let connections = 0;
  const heads: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.subarray(end + 4 + length);
        heads.push(head);
        answer(socket, heads.length - 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    heads,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
