/**
 * What gwprof's own HTTP/1.1 client (the load engine) makes of answers written byte for byte by a
 * raw loopback server: a table of cases, each with the outcome every request must have (ok, or
 * the failure kind a sweep counts), how many connections it takes, and how soon a failure must
 * show (long before the timeout). Each case runs through the engine's exchange layer (the
 * connection, parser, deadline, validation and recorder a sweep's closed loop uses, one request
 * after another) and through undici, the client it replaced, as the reference: both must agree,
 * or the table says why not. Pure loopback (port 0), a few seconds.
 */
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { Client, errors as undiciErrors } from '../../packages/collect/node_modules/undici/index.js';
import { startClosedLoop } from '../../packages/collect/src/load/closed-loop.js';
import { InFlight, exchange } from '../../packages/collect/src/load/exchange.js';
import { Http1Connection } from '../../packages/collect/src/load/http1-connection.js';
import { REQUEST_HEADERS, wireRequests } from '../../packages/collect/src/load/http1-request.js';
import { type Completion, LoadRecorder } from '../../packages/collect/src/load/recorder.js';
import { RequestStream } from '../../packages/collect/src/load/request-stream.js';
import { parseOperation, type Scenario, scenarioRequest } from '../../packages/collect/src/scenario/scenario.js';
import { rawServer } from '../../packages/collect/src/testing/raw-server.js';
import type { FailureCounts } from '../../packages/results/src/failures.js';

/** One request, its golden answer holding a two-byte UTF-8 character. */
const SCENARIO: Scenario = { source: 'conformance', requests: [scenarioRequest(parseOperation('query Q { name }', 'conformance'), null, { name: 'Ä' })] };
const GOLDEN = Buffer.from('{"data":{"name":"Ä"}}');
const TIMEOUT_MS = 5_000;
/** A failure the bytes show must be counted this soon, not at the timeout. */
const PROMPT_MS = 1_000;

type Outcome = 'ok' | keyof FailureCounts;

interface Case {
  name: string;
  /** What the server writes for request `index` (counted over all its connections). */
  answer: (socket: net.Socket, index: number) => void;
  /** Each request's outcome (three requests, one after another, on one connection of the engine's). */
  outcomes: Outcome | Outcome[];
  /** Connections opened for the three requests. */
  connections: number;
  /** A failure is counted within PROMPT_MS of its send. */
  prompt?: boolean;
  /** Pause between requests, ms. */
  gapMs?: number;
  requests?: number;
  timeoutMs?: number;
  /** Where undici does otherwise, what it does, and why gwprof differs. */
  undici?: { outcomes?: Outcome | Outcome[]; connections?: number; why: string };
}

const head = (status: string, headers: string) => Buffer.from(`HTTP/1.1 ${status}\r\n${headers}\r\n`, 'latin1');
const withLength = (body: Buffer, extra = '') =>
  Buffer.concat([head('200 OK', `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}`), body]);
const OK = withLength(GOLDEN);
const chunkedBody = (parts: Buffer[], extension = '', trailers = '') =>
  Buffer.concat([
    head('200 OK', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n'),
    ...parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}${extension}\r\n`), part, Buffer.from('\r\n')]),
    Buffer.from(`0\r\n${trailers}\r\n`),
  ]);
const inPieces = (socket: net.Socket, bytes: Buffer, at: number) => {
  socket.write(bytes.subarray(0, at));
  setTimeout(() => socket.write(bytes.subarray(at)), 30);
};
const deeplyNested = (depth: number) => Buffer.from(`{"data":{"name":${'['.repeat(depth)}"Ä"${']'.repeat(depth)}}}`);

const CASES: Case[] = [
  { name: 'Content-Length', answer: (s) => s.write(OK), outcomes: 'ok', connections: 1 },
  {
    name: 'chunked, with extensions and trailers',
    answer: (s) => s.write(chunkedBody([GOLDEN.subarray(0, 9), GOLDEN.subarray(9)], ';name="v";x=1', 'X-Trailer: yes\r\nX-Other: 2\r\n')),
    outcomes: 'ok',
    connections: 1,
  },
  {
    name: 'chunked, one byte a chunk, a byte a write',
    answer: (s) => {
      const bytes = chunkedBody([...GOLDEN].map((byte) => Buffer.from([byte])));
      for (let i = 0; i < bytes.length; i++) s.write(bytes.subarray(i, i + 1));
    },
    outcomes: 'ok',
    connections: 1,
  },
  {
    name: 'a body that runs to the end of the connection',
    answer: (s) => s.end(Buffer.concat([head('200 OK', 'Content-Type: application/json\r\n'), GOLDEN])),
    outcomes: 'ok',
    connections: 3,
  },
  { name: 'Connection: close', answer: (s) => s.end(withLength(GOLDEN, 'Connection: close\r\n')), outcomes: 'ok', connections: 3 },
  {
    name: 'HTTP/1.0 without keep-alive',
    answer: (s) => s.end(Buffer.from(`HTTP/1.0 200 OK\r\nContent-Length: ${GOLDEN.length}\r\n\r\n${GOLDEN.toString('latin1')}`, 'latin1')),
    outcomes: 'ok',
    connections: 3,
  },
  {
    name: '100 Continue, then the answer',
    answer: (s) => s.write(Buffer.concat([head('100 Continue', ''), OK])),
    outcomes: 'ok',
    connections: 1,
    undici: {
      outcomes: 'protocolErrors',
      connections: 3,
      why: 'undici refuses a 100 it did not ask for (no Expect: 100-continue); RFC 9110 15.2 has a client skip a 1xx it did not expect, and gwprof does',
    },
  },
  {
    name: '103 Early Hints with headers, then the answer',
    answer: (s) => s.write(Buffer.concat([head('103 Early Hints', 'Link: </a.css>; rel=preload\r\n'), OK])),
    outcomes: 'ok',
    connections: 1,
  },
  { name: '204 No Content (no body, connection kept)', answer: (s) => s.write(head('204 No Content', '')), outcomes: 'badBody', connections: 1 },
  { name: '304 Not Modified (no body, connection kept)', answer: (s) => s.write(head('304 Not Modified', '')), outcomes: 'non2xx', connections: 1 },
  {
    name: "304 Not Modified with its representation's Content-Length",
    answer: (s) => s.write(head('304 Not Modified', 'Content-Length: 99\r\n')),
    outcomes: 'non2xx',
    connections: 1,
    undici: {
      outcomes: 'protocolErrors',
      connections: 3,
      why: "undici waits for a body of that length; a 304 has none, its Content-Length is the representation's (RFC 9110 8.6)",
    },
  },
  {
    name: '500 with a body',
    answer: (s) => s.write(Buffer.concat([head('500 Oops', 'Content-Length: 4\r\n'), Buffer.from('oops')])),
    outcomes: 'non2xx',
    connections: 1,
  },
  { name: 'split inside the status line', answer: (s) => inPieces(s, OK, 10), outcomes: 'ok', connections: 1 },
  { name: 'split inside a UTF-8 character', answer: (s) => inPieces(s, OK, OK.indexOf(0xc3) + 1), outcomes: 'ok', connections: 1 },
  {
    name: 'idle close between requests',
    answer: (s) => {
      s.write(OK);
      setTimeout(() => s.end(), 20);
    },
    gapMs: 300,
    outcomes: 'ok',
    connections: 3,
  },
  { name: 'a stray CRLF after each response', answer: (s) => s.write(Buffer.concat([OK, Buffer.from('\r\n')])), outcomes: 'ok', connections: 1 },
  {
    name: 'a stray CRLF while no request is outstanding',
    answer: (s) => {
      s.write(OK);
      setTimeout(() => s.write('\r\n'), 30);
    },
    gapMs: 150,
    outcomes: 'ok',
    connections: 1,
  },
  { name: 'CRLF before the head', answer: (s) => s.write(Buffer.concat([Buffer.from('\r\n'), OK])), outcomes: 'ok', connections: 1 },
  {
    name: 'deeply nested JSON in a 200',
    answer: (s) => s.write(withLength(deeplyNested(100_000))),
    outcomes: 'mismatch',
    connections: 1,
  },
  {
    name: 'a header name with a space before the colon',
    answer: (s) => s.write(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length : ${GOLDEN.length}\r\n\r\n`)),
    outcomes: 'protocolErrors',
    connections: 3,
    prompt: true,
  },
  {
    name: 'bare LF line ends',
    answer: (s) => s.write(Buffer.from(`HTTP/1.1 200 OK\nContent-Length: ${GOLDEN.length}\n\n${GOLDEN.toString('latin1')}`, 'latin1')),
    outcomes: 'protocolErrors',
    connections: 3,
    prompt: true,
  },
  {
    name: 'a folded header line (obs-fold)',
    answer: (s) => s.write(withLength(GOLDEN, 'X-Long: a\r\n  b\r\n')),
    outcomes: 'protocolErrors',
    connections: 3,
    prompt: true,
  },
  {
    name: 'bytes that are not HTTP, no blank line',
    answer: (s) => s.write('SSH-2.0-OpenSSH_9.6\r\n'),
    outcomes: 'protocolErrors',
    connections: 3,
    prompt: true,
  },
  { name: 'an HTTP/2 status line', answer: (s) => s.write('HTTP/2 200\r\n\r\n'), outcomes: 'protocolErrors', connections: 3, prompt: true },
  {
    name: 'a bad chunk size',
    answer: (s) => s.write(Buffer.concat([head('200 OK', 'Transfer-Encoding: chunked\r\n'), Buffer.from('zz\r\n')])),
    outcomes: 'protocolErrors',
    connections: 3,
    prompt: true,
  },
  {
    name: 'a Content-Length body cut by the end of the connection',
    answer: (s) => s.end(OK.subarray(0, -3)),
    outcomes: 'socketErrors',
    connections: 3,
    prompt: true,
  },
  {
    name: 'a reset while reading a body that runs to the end of the connection',
    answer: (s) => {
      s.write(Buffer.concat([head('200 OK', 'Content-Type: application/json\r\n'), GOLDEN.subarray(0, 8)]));
      setTimeout(() => s.resetAndDestroy(), 30);
    },
    outcomes: 'socketErrors',
    connections: 3,
    prompt: true,
    undici: {
      outcomes: 'badBody',
      why: 'undici delivers the body cut by the reset as if whole (its judge then finds broken JSON); a reset is no end of a body',
    },
  },
  {
    name: 'an answer later than the timeout',
    // Ten timeouts late: undici's headers timeout runs on its fast timers, which tick about every
    // 0.5 s and later on a busy machine, so its 400 ms has fired after 1 s and more.
    answer: (s) => setTimeout(() => s.write(OK), 4_000),
    timeoutMs: 400,
    requests: 1,
    outcomes: 'timeouts',
    connections: 1,
  },
];

interface Observed {
  outcomes: Outcome[];
  /** ms from each send to its completion (a timeout: to its deadline). */
  elapsedMs: number[];
  /** Connections the server accepted. */
  accepted: number;
  /** Connections the engine says it opened (gwprof only). */
  opened?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The case through gwprof's engine: one connection, requests one after another, recorded as a sweep records them. */
async function throughGwprof(c: Case): Promise<Observed> {
  const server = await rawServer(c.answer);
  const stream = new RequestStream(SCENARIO);
  const wire = wireRequests(`http://127.0.0.1:${server.port}/graphql`, stream.bodies);
  const recorder = new LoadRecorder(performance.now());
  const connection = new Http1Connection(wire.host, wire.port, null, () => recorder.onConnect(performance.now()));
  const inFlight = new InFlight(c.timeoutMs ?? TIMEOUT_MS);
  const observed: Observed = { outcomes: [], elapsedMs: [], accepted: 0 };
  try {
    for (let i = 0; i < (c.requests ?? 3); i++) {
      if (i > 0 && c.gapMs) await sleep(c.gapMs);
      const request = stream.take();
      const sentAt = performance.now();
      recorder.onSend(sentAt);
      let timedOutAt: number | null = null;
      const { completion, at } = await new Promise<{ completion: Completion | null; at: number }>((resolve) =>
        exchange(
          connection,
          wire.messages[request.index]!,
          request,
          stream,
          inFlight,
          sentAt,
          (deadline, timeout) => {
            timedOutAt = deadline;
            recorder.onTimedOut(deadline, timeout);
          },
          (done, when) => resolve({ completion: done, at: when }),
        ),
      );
      if (completion) recorder.onComplete(at, completion);
      else recorder.onSettled();
      observed.outcomes.push(completion === null ? 'timeouts' : completion.ok ? 'ok' : completion.kind);
      observed.elapsedMs.push((timedOutAt ?? at) - sentAt);
    }
    // What the recorder holds is what a sweep's window would count.
    const counted = recorder.window(0, 1_000);
    expect(counted.requests.total).toBe(observed.outcomes.length);
    expect(counted.requests.ok).toBe(observed.outcomes.filter((o) => o === 'ok').length);
    observed.opened = recorder.connectionsOpened;
  } finally {
    inFlight.abortAll();
    connection.close();
    observed.accepted = server.connections();
    await server.close();
  }
  return observed;
}

/** undici's errors, as the failure kinds gwprof counts: its complaints about the bytes (a parser error, a body unlike its length, a 1xx it refuses as a "bad response") are protocol errors. */
function undiciKind(error: unknown): Outcome {
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) return 'timeouts';
  if (error instanceof undiciErrors.HTTPParserError || error instanceof undiciErrors.ResponseContentLengthMismatchError) return 'protocolErrors';
  if (error instanceof undiciErrors.SocketError && error.message === 'bad response') return 'protocolErrors';
  return 'socketErrors';
}

/** The case through undici, judged by the same request stream. */
async function throughUndici(c: Case): Promise<Observed> {
  const server = await rawServer(c.answer);
  const stream = new RequestStream(SCENARIO);
  const timeout = c.timeoutMs ?? TIMEOUT_MS;
  const client = new Client(`http://127.0.0.1:${server.port}`, { headersTimeout: timeout, bodyTimeout: timeout });
  const observed: Observed = { outcomes: [], elapsedMs: [], accepted: 0 };
  try {
    for (let i = 0; i < (c.requests ?? 3); i++) {
      if (i > 0 && c.gapMs) await sleep(c.gapMs);
      const request = stream.take();
      const sentAt = performance.now();
      let outcome: Outcome;
      try {
        const response = await client.request({ method: 'POST', path: '/graphql', headers: REQUEST_HEADERS, body: request.body });
        const verdict = stream.verdict(request.index, response.statusCode, Buffer.from(await response.body.arrayBuffer()));
        outcome = verdict.ok ? 'ok' : verdict.kind;
      } catch (error) {
        outcome = undiciKind(error);
      }
      observed.outcomes.push(outcome);
      observed.elapsedMs.push(performance.now() - sentAt);
    }
  } finally {
    await client.destroy();
    observed.accepted = server.connections();
    await server.close();
  }
  return observed;
}

const each = (outcomes: Outcome | Outcome[], count: number): Outcome[] => (Array.isArray(outcomes) ? outcomes : Array(count).fill(outcomes));

describe('HTTP/1.1 conformance of the load engine, against undici', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const count = c.requests ?? 3;
      const gwprof = await throughGwprof(c);
      expect(gwprof.outcomes).toEqual(each(c.outcomes, count));
      expect(gwprof.accepted).toBe(c.connections);
      expect(gwprof.opened).toBe(c.connections);
      if (c.prompt) for (const ms of gwprof.elapsedMs) expect(ms).toBeLessThan(PROMPT_MS);
      const undici = await throughUndici(c);
      expect(undici.outcomes).toEqual(each(c.undici?.outcomes ?? c.outcomes, count));
      expect(undici.accepted).toBe(c.undici?.connections ?? c.connections);
    });
  }
});

describe('the closed loop on answers that once broke it', () => {
  async function closedLoop(answer: Case['answer'], ms: number) {
    const server = await rawServer(answer);
    const stream = new RequestStream(SCENARIO);
    const recorder = new LoadRecorder(performance.now());
    const engine = startClosedLoop({
      wire: wireRequests(`http://127.0.0.1:${server.port}/graphql`, stream.bodies),
      connections: 4,
      timeoutMs: TIMEOUT_MS,
      stream,
      recorder,
      acceptQueue: () => 0,
    });
    await sleep(ms);
    await engine.stop();
    const accepted = server.connections();
    await server.close();
    return { stats: recorder.window(0, 1_000), opened: recorder.connectionsOpened, accepted };
  }

  it('keeps its 4 connections when every response ends with a stray CRLF', async () => {
    const { stats, opened, accepted } = await closedLoop((s) => s.write(Buffer.concat([OK, Buffer.from('\r\n')])), 500);
    expect(stats.requests.ok).toBeGreaterThan(100);
    expect(stats.requests.failed).toBe(0);
    expect({ opened, accepted }).toEqual({ opened: 4, accepted: 4 });
  });

  it('counts every deeply nested answer as a mismatch and goes on', async () => {
    const nested = withLength(deeplyNested(100_000));
    const { stats } = await closedLoop((s) => s.write(nested), 500);
    expect(stats.requests.total).toBeGreaterThan(4);
    expect(stats.failureCounts.mismatch).toBe(stats.requests.total);
    expect(stats.failureSamples[0]!.message).toMatch(/^data\.name: expected "Ä", got \[\[\[/);
  });
});
