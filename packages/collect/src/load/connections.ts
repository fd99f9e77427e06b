/**
 * The connections of a closed-loop step, opened and admitted by the gateway before the first
 * request is sent.
 *
 * A Node gateway accepts one connection per event-loop iteration (libuv ≥ 1.45). When hundreds of
 * connections arrive with their requests while the gateway has begun working, its iterations grow
 * to 100–300 ms, and the last connections wait in its accept queue for tens of seconds: timeouts
 * that belong to the start of the run, not to the gateway's steady state. Opening every connection
 * first lets an idle gateway accept them all in a few milliseconds; then the requests go out.
 * (bench/results/start-race/start-race.md has the measurements.)
 */
import type net from 'node:net';
import { Http1Connection, connectSocket } from './http1-connection.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** How long to wait for the gateway to accept the opened connections before sending anyway. */
const ADMISSION_WAIT_MS = 5_000;
const POLL_MS = 10;

export interface OpenedConnections {
  connections: Http1Connection[];
  /** Connections that could not be opened in advance; they connect on their first request. */
  notOpened: number;
  /** Connections still in the gateway's accept queue when sending began (null: queue not visible). */
  notAdmitted: number | null;
  /** Closes every connection, including sockets opened in advance that no request has used yet. */
  close(): void;
}

/**
 * Opens `count` keep-alive connections to `host`:`port`. `acceptQueue` (a local gateway's listening
 * socket) is polled until the gateway has accepted them all, within a bound. `onConnect` hears of
 * every socket connected, in advance and later, when a connection opens its socket again.
 */
export async function openConnections(
  host: string,
  port: number,
  count: number,
  acceptQueue?: () => number,
  onConnect: () => void = () => undefined,
): Promise<OpenedConnections> {
  const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(host, port, onConnect)));
  const notAdmitted = acceptQueue ? await waitForAdmission(acceptQueue) : null;
  // The first request of each goes on the socket opened in advance; after it closes, a new one is opened.
  const connections = sockets.map((socket) => new Http1Connection(host, port, socket, onConnect));
  const close = () => {
    for (const connection of connections) connection.close();
  };
  return { connections, notOpened: sockets.filter((s) => s === null).length, notAdmitted, close };
}

function openSocket(host: string, port: number, onConnect: () => void): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const socket = connectSocket(host, port);
    const fail = () => {
      socket.destroy();
      resolve(null);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, fail);
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.setTimeout(0);
      onConnect();
      // Until undici takes it over, a reset only loses this socket (undici then connects afresh).
      socket.removeListener('error', fail);
      socket.once('error', () => socket.destroy());
      resolve(socket);
    });
  });
}

async function waitForAdmission(acceptQueue: () => number): Promise<number> {
  const deadline = performance.now() + ADMISSION_WAIT_MS;
  let waiting = acceptQueue();
  while (waiting > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    waiting = acceptQueue();
  }
  return waiting;
}
