/** The traceparent every request carries (`--trace`), against a tiny server that keeps what it got. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubScenario } from '../testing/stub-gateway.js';
import { startClosedLoop } from './closed-loop.js';
import { wireRequests } from './http1-request.js';
import { LoadRecorder } from './recorder.js';
import { RequestStream } from './request-stream.js';
import { RequestTraces } from './request-traces.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

describe('a traceparent per request', () => {
  let server: http.Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(String(req.headers.traceparent));
      req.resume();
      req.on('end', () => {
        // A few ms per answer: a hundred or so requests a second on two connections.
        setTimeout(() => res.end('{"data":{"ok":true}}'), 10);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(() => server.close());

  it('is a valid W3C header with a trace id of its own per request, sampled only while sampling and within the budget', async () => {
    const recorder = new LoadRecorder(performance.now());
    const stream = new RequestStream(stubScenario());
    const traces = new RequestTraces({ perSecond: 5, perWindow: 8 });
    const wire = wireRequests(url, stream.bodies, { traced: true });
    const load = startClosedLoop({ wire, connections: 2, timeoutMs: 5_000, stream, recorder, traces });
    await sleep(300);
    traces.startSampling();
    await sleep(2_300);
    const answered = traces.stopSampling();
    await sleep(200);
    await load.stop();
    expect(recorder.window(0, 3).requests.failed).toBe(0);
    const parsed = seen.map((header) => TRACEPARENT.exec(header));
    expect(parsed.every(Boolean)).toBe(true);
    const ids = parsed.map((match) => match![1]!);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id.startsWith(traces.prefix))).toBe(true);
    const sampled = parsed.filter((match) => match![3] === '01').map((match) => match![1]!);
    // 5 a second over 2.3 s of sampling touches at most 4 seconds; the window's cap is 8.
    expect(sampled.length).toBe(8);
    expect(seen.length).toBeGreaterThan(50);
    // Every sampled request answered is handed over, with its own id and a latency of at least the server's 10 ms.
    expect(answered.map((trace) => trace.traceId).sort()).toEqual([...sampled].sort());
    for (const trace of answered) {
      expect(trace.end - trace.start).toBeGreaterThanOrEqual(9);
      // On the machine's monotonic clock, as the subgraphs log their calls.
      expect(Math.abs(trace.start - Number(process.hrtime.bigint()) / 1e6)).toBeLessThan(10_000);
    }
  });

  it('leaves the request bytes as they were without --trace', () => {
    const plain = wireRequests('http://127.0.0.1:4000/graphql', ['{}']);
    expect(plain.traceAt).toBeUndefined();
    expect(plain.messages[0]!.toString()).not.toContain('traceparent');
    const traced = wireRequests('http://127.0.0.1:4000/graphql', ['{}', '{"a":1}'], { traced: true });
    for (const message of traced.messages) {
      expect(message.toString('latin1', traced.traceAt! - 18, traced.traceAt!)).toBe('\r\ntraceparent: 00-');
    }
  });
});
