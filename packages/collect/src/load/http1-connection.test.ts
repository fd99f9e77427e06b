/** One keep-alive connection against a raw TCP server whose answers are written byte for byte. */
import { afterEach, describe, expect, it } from 'vitest';
import { Http1Connection } from './http1-connection.js';
import { type RawServer, rawServer } from '../testing/raw-server.js';
import { wireRequests } from './http1-request.js';

const ok = (body: string, headers = '') =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`;

type Outcome = { status: number; body: string } | { error: Error };

function send(connection: Http1Connection, message: Buffer): Promise<Outcome> {
  return new Promise((resolve) =>
    connection.send(message, {
      onResponse: (status, body) => resolve({ status, body: body.toString() }),
      onError: (error) => resolve({ error }),
    }),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Http1Connection', () => {
  let server: RawServer | undefined;
  let connection: Http1Connection | undefined;
  afterEach(async () => {
    connection?.close();
    await server?.close();
  });

  const open = (s: RawServer) => {
    server = s;
    connection = new Http1Connection('127.0.0.1', s.port);
    const [message] = wireRequests(`http://127.0.0.1:${s.port}/graphql`, ['{"query":"{ ok }"}']).messages;
    return { connection, message: message! };
  };

  it('sends the headers gwprof always sent, and keeps one connection for request after request', async () => {
    const { connection, message } = open(await rawServer((socket, i) => socket.write(ok(`{"data":{"n":${i}}}`))));
    for (let i = 0; i < 3; i++) expect(await send(connection, message)).toEqual({ status: 200, body: `{"data":{"n":${i}}}` });
    expect(server!.connections()).toBe(1);
    expect(server!.heads[0]).toBe(
      `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1:${server!.port}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\naccept: application/json\r\ncontent-length: 18`,
    );
  });

  it('opens a new connection after a response that closes it', async () => {
    const { connection, message } = open(await rawServer((socket) => socket.end(ok('{"data":{}}', 'Connection: close\r\n'))));
    expect(await send(connection, message)).toMatchObject({ status: 200 });
    expect(await send(connection, message)).toMatchObject({ status: 200 });
    expect(server!.connections()).toBe(2);
  });

  it('fails a request whose response is cut short, then answers the next on a new connection', async () => {
    const { connection, message } = open(
      await rawServer((socket, i) => {
        if (i === 0) socket.end(ok('{"data":{"cut":true}}').slice(0, -5));
        else socket.write(ok('{"data":{}}'));
      }),
    );
    const cut = await send(connection, message);
    expect(cut).toHaveProperty('error');
    expect((cut as { error: Error }).error.message).toMatch(/closed the connection before the response was complete/);
    expect(await send(connection, message)).toEqual({ status: 200, body: '{"data":{}}' });
    expect(server!.connections()).toBe(2);
  });

  it('reuses no connection the server has closed while idle', async () => {
    const { connection, message } = open(
      await rawServer((socket) => {
        socket.write(ok('{"data":{}}'));
        setTimeout(() => socket.end(), 20);
      }),
    );
    expect(await send(connection, message)).toMatchObject({ status: 200 });
    await sleep(300);
    expect(await send(connection, message)).toMatchObject({ status: 200 });
    expect(server!.connections()).toBe(2);
  });

  it('reuses no connection idle for longer than the server keeps one, less a margin', async () => {
    // Keep-Alive: timeout=2 leaves no time to reuse it (2 s less 2 s); timeout=60 does.
    for (const [timeout, connections] of [
      [2, 2],
      [60, 1],
    ] as const) {
      const { connection, message } = open(await rawServer((socket) => socket.write(ok('{"data":{}}', `Keep-Alive: timeout=${timeout}\r\n`))));
      await send(connection, message);
      await sleep(5);
      await send(connection, message);
      expect(server!.connections()).toBe(connections);
      connection.close();
      await server!.close();
    }
  });

  it('fails the request outstanding when aborted, and closes its connection', async () => {
    let closed = false;
    const { connection, message } = open(await rawServer((socket) => socket.on('close', () => (closed = true))));
    const outcome = send(connection, message);
    await sleep(20);
    connection.abort(new Error('given up'));
    expect(await outcome).toEqual({ error: new Error('given up') });
    await sleep(50);
    expect(closed).toBe(true);
  });

  it('fails on bytes that are not HTTP, and on a refused connection', async () => {
    const { connection, message } = open(await rawServer((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n')));
    expect((await send(connection, message)) as { error: Error }).toMatchObject({ error: { code: 'HTTP_PARSE' } });
    const { port } = server!;
    connection.close();
    await server!.close();
    server = undefined;
    let connected = 0;
    const refused = new Http1Connection('127.0.0.1', port, null, () => connected++);
    expect(await send(refused, message)).toMatchObject({ error: { code: 'ECONNREFUSED' } });
    // A refused connect opened no connection.
    expect(connected).toBe(0);
  });
});
