import net from 'node:net';
import { GwprofError } from '@gwprof/results';

/** Fails with a message naming the port and its intended user when something listens on it. */
export function assertPortFree(port: number, usedFor: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' ? new GwprofError(`port ${port} (${usedFor}) is already in use: stop what listens there or choose another port`) : error,
      );
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/**
 * Fails when two of the ports are one (`which` names them all in the message), then when one is in
 * use; `ports` maps each port's intended user to the port.
 */
export async function assertPortsFree(which: string, ports: Record<string, number>): Promise<void> {
  const numbers = Object.values(ports);
  if (new Set(numbers).size !== numbers.length) throw new GwprofError(`${which} must all differ (got ${numbers.join(', ')})`);
  for (const [usedFor, port] of Object.entries(ports)) await assertPortFree(port, usedFor);
}

/** Resolves once something accepts connections on 127.0.0.1:port, or rejects after the timeout. */
export async function waitForPort(port: number, timeoutMs: number, isAlive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error('process exited before it listened');
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on port ${port} within ${Math.round(timeoutMs / 1000)} s`);
}

/** A port nothing listens on now, chosen by the kernel (another process could take it before it is used). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
