/** Connections opened and accepted before the first request, against an in-process HTTP server. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptQueueLength } from '../processes/listening-pid.js';
import { stubScenario } from '../testing/stub-gateway.js';
import { startClosedLoop } from './closed-loop.js';
import { openConnections } from './connections.js';
import type { Http1Connection } from './http1-connection.js';
import { wireRequests } from './http1-request.js';
import { LoadRecorder } from './recorder.js';
import { RequestStream } from './request-stream.js';

interface TestServer {
  origin: string;
  port: number;
  connections: () => number;
  requests: () => number;
  open: () => Promise<number>;
  close: () => Promise<void>;
}

async function startServer(): Promise<TestServer> {
  let connections = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => res.end('{"data":{}}'));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    requests: () => requests,
    open: () => new Promise((resolve) => server.getConnections((_, n) => resolve(n))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The status of one POST on `connection`. */
function post(connection: Http1Connection, origin: string): Promise<number> {
  const [message] = wireRequests(`${origin}/`, ['{}']).messages;
  return new Promise((resolve, reject) => connection.send(message!, { onResponse: (status) => resolve(status), onError: reject }));
}

const until = async (check: () => Promise<boolean>, ms = 2_000) => {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};

describe('openConnections', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it('has every connection accepted by the server before any request, then sends on those same connections', async () => {
    server = await startServer();
    const opened = await openConnections('127.0.0.1', server.port, 20, () => acceptQueueLength(server!.port));
    expect(opened.notOpened).toBe(0);
    expect(opened.notAdmitted).toBe(0);
    expect(server.connections()).toBe(20);
    expect(server.requests()).toBe(0);

    const statuses = await Promise.all(opened.connections.map((connection) => post(connection, server!.origin)));
    expect(statuses).toEqual(Array(20).fill(200));
    expect(server.requests()).toBe(20);
    expect(server.connections()).toBe(20);

    opened.close();
    await until(async () => (await server!.open()) === 0);
    expect(await server.open()).toBe(0);
  });

  it('counts the connections it could not open, and closes the ones no request has used yet', async () => {
    server = await startServer();
    const opened = await openConnections('127.0.0.1', server.port, 5);
    expect(opened.notAdmitted).toBeNull();
    opened.close();
    await until(async () => (await server!.open()) === 0);
    expect(await server.open()).toBe(0);

    const { port } = server;
    await server.close();
    server = undefined;
    const refused = await openConnections('127.0.0.1', port, 3);
    expect(refused.notOpened).toBe(3);
    refused.close();
  });

  it('leaves no connection behind when the load stops while they are still opening', async () => {
    server = await startServer();
    const stream = new RequestStream(stubScenario());
    const load = startClosedLoop({
      wire: wireRequests(`${server.origin}/graphql`, stream.bodies),
      connections: 50,
      timeoutMs: 5_000,
      stream,
      recorder: new LoadRecorder(performance.now()),
    });
    await load.stop();
    await until(async () => (await server!.open()) === 0);
    expect(await server.open()).toBe(0);
  });
});
