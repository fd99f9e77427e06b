/** One request and its validated response, through a real connection to an in-process server. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOperation, scenarioRequest } from '../scenario/scenario.js';
import { InFlight, exchange } from './exchange.js';
import { Http1Connection } from './http1-connection.js';
import { wireRequests } from './http1-request.js';
import type { Completion } from './recorder.js';
import { type PreparedRequest, RequestStream } from './request-stream.js';

/** One exchange as a promise. */
function exchangeOnce(
  connection: Http1Connection,
  message: Buffer,
  request: PreparedRequest,
  stream: RequestStream,
  inFlight: InFlight,
  startedAt = performance.now(),
  timeouts: Array<{ at: number; completion: Completion }> = [],
): Promise<{ completion: Completion | null; at: number }> {
  return new Promise((resolve) =>
    exchange(
      connection,
      message,
      request,
      stream,
      inFlight,
      startedAt,
      (at, completion) => timeouts.push({ at, completion }),
      (completion, at) => resolve({ completion, at }),
    ),
  );
}

const golden = { user: { id: '1', name: 'Ada' }, reviews: [{ id: '10', stars: 5 }] };
const canonical = JSON.stringify({ data: golden });

describe('exchange', () => {
  /** What the server answers next: a status and a body, or a response cut after its first bytes. */
  let next: { status: number; body: string } | 'cut' = { status: 200, body: canonical };
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (next === 'cut') {
          res.writeHead(200, { 'content-length': 100 });
          res.write('{"data":');
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        res.writeHead(next.status, { 'content-type': 'application/json' });
        res.end(next.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function completionOf(
    answer: typeof next,
    { late = 0, judge }: { late?: number; judge?: RequestStream['verdict'] } = {},
    timeouts: Array<{ at: number; completion: Completion }> = [],
  ): Promise<Completion | null> {
    next = answer;
    const stream = new RequestStream({
      source: 'test',
      requests: [scenarioRequest(parseOperation('query Q { user { id name } reviews { id stars } }', 'test'), null, golden)],
    });
    if (judge) stream.verdict = judge;
    const wire = wireRequests(url, stream.bodies);
    const connection = new Http1Connection(wire.host, wire.port);
    const inFlight = new InFlight(10_000);
    try {
      const { completion } = await exchangeOnce(connection, wire.messages[0]!, stream.take(), stream, inFlight, performance.now() - late, timeouts);
      return completion;
    } finally {
      inFlight.abortAll();
      connection.close();
    }
  }

  it('passes the golden bytes, and a reordered body with an order warning', async () => {
    expect(await completionOf({ status: 200, body: canonical })).toMatchObject({ ok: true, orderWarning: false, bytes: canonical.length });
    const reordered = '{"data":{"reviews":[{"stars":5,"id":"10"}],"user":{"name":"Ada","id":"1"}}}';
    expect(await completionOf({ status: 200, body: reordered })).toMatchObject({ ok: true, orderWarning: true });
  });

  it('fails a body with one value changed, with errors, cut short, or with an error status', async () => {
    expect(await completionOf({ status: 200, body: canonical.replace('Ada', 'Ado') })).toMatchObject({
      ok: false,
      kind: 'mismatch',
      message: 'data.user.name: expected "Ada", got "Ado"',
    });
    const withErrors = canonical.replace(/}$/, ',"errors":[{"message":"boom"}]}');
    expect(await completionOf({ status: 200, body: withErrors })).toMatchObject({ ok: false, kind: 'graphqlErrors', message: 'boom' });
    expect(await completionOf({ status: 200, body: canonical.slice(0, -1) })).toMatchObject({ ok: false, kind: 'badBody' });
    expect(await completionOf({ status: 503, body: canonical })).toMatchObject({ ok: false, kind: 'non2xx' });
  });

  it('counts a response the connection cut before its end as a socket error', async () => {
    expect(await completionOf('cut')).toMatchObject({ ok: false, kind: 'socketErrors', bytes: 0 });
  });

  it('counts an answer later than its deadline as a timeout, whatever the tick (the deadline runs from the intended send)', async () => {
    // Meant to leave 10.5 s ago with a 10 s timeout: an immediate answer is 0.5 s late, before any tick has looked.
    const timeouts: Array<{ at: number; completion: Completion }> = [];
    expect(await completionOf({ status: 200, body: canonical }, { late: 10_500 }, timeouts)).toBeNull();
    expect(timeouts).toHaveLength(1);
    expect(timeouts[0]!.completion).toMatchObject({ ok: false, kind: 'timeouts' });
    expect(await completionOf('cut', { late: 10_500 }, timeouts)).toBeNull();
    expect(timeouts).toHaveLength(2);
  });

  it('counts a response whose judging throws as a failure of that request, with the reason', async () => {
    const judge = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    expect(await completionOf({ status: 200, body: canonical }, { judge })).toEqual({
      ok: false,
      kind: 'badBody',
      message: 'the body could not be judged: RangeError: Maximum call stack size exceeded',
      bytes: canonical.length,
    });
  });
});
