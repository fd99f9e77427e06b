/** The closed-loop engine against a stub gateway with a known service time (a real process). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubGateway, stubScenario, type StubGateway } from '../testing/stub-gateway.js';
import { startClosedLoop } from './closed-loop.js';
import { wireRequests } from './http1-request.js';
import { LoadRecorder } from './recorder.js';
import { RequestStream } from './request-stream.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('closed-loop load', () => {
  let stub: StubGateway;
  beforeAll(async () => {
    // It sleeps its 300 ms per request: a busy hold sharing a core would also wait for the scheduler.
    stub = await startStubGateway(4871, { STUB_SERVICE_MS: 300, STUB_SERVICE_HOLD: 'sleep' });
  });
  afterAll(() => stub?.stop());

  it('keeps every connection busy and counts responses by the second they completed in', async () => {
    // The stub holds its one thread D = 300 ms per request. Two connections: one request in service,
    // one waiting.
    const recorder = new LoadRecorder(performance.now());
    const stream = new RequestStream(stubScenario());
    const load = startClosedLoop({ wire: wireRequests(stub.url, stream.bodies), connections: 2, timeoutMs: 10_000, stream, recorder });
    await sleep(3_150);
    const inFlight = recorder.inFlight;
    await load.stop();
    const T = 2;
    const window = recorder.window(1, 1 + T);
    // A connection sends its next request in the same tick its response is recorded: never seen idle.
    expect(inFlight).toBe(2);
    expect(window.requests.failed).toBe(0);
    // Completions come one service apart, s = D + δ (δ: the HTTP round trip outside the hold, about
    // 1 ms). T = 2 s holds ⌊T/s⌋ or ⌈T/s⌉ of them: never more than ⌈2/0.3⌉ = 7, as no response
    // takes less than D, and at least 5 unless δ reached 100 ms, a third of the stub's time stalled.
    expect(window.requests.ok).toBeGreaterThanOrEqual(5);
    expect(window.requests.ok).toBeLessThanOrEqual(7);
    // Each request waits out the other connection's: latency 2D − δ ≈ 600 ms; alone it would be D.
    expect(window.latencyMs!.p50).toBeGreaterThan(1.5 * 300);
    expect(recorder.okPerSecond(1, 1 + T).reduce((a, b) => a + b, 0)).toBe(window.requests.ok);
    // Little's law: responses per second × mean latency = connections. Each connection's latencies
    // in the window add up to T but for the request cut at each edge, at most one latency (the
    // window's max) at either end, and the δ gaps between a response and the next send (under 5%).
    const little = ((window.requests.ok / T) * window.latencyMs!.mean) / 1000 / 2;
    const edge = window.latencyMs!.max / 1000 / T;
    expect(little).toBeGreaterThanOrEqual(1 - edge - 0.05);
    expect(little).toBeLessThanOrEqual(1 + edge);
  });

  it('counts a request unanswered within the timeout as a timeout, never as a success, and keeps its connection', async () => {
    const recorder = new LoadRecorder(performance.now());
    const stream = new RequestStream(stubScenario());
    const load = startClosedLoop({ wire: wireRequests(stub.url, stream.bodies), connections: 1, timeoutMs: 150, stream, recorder });
    await sleep(1_200);
    const sent = recorder.sent;
    await load.stop();
    // Each request takes the stub 300 ms: waiting it out sends one every 300 ms (4 in 1.2 s). Dropping
    // the connection at 150 ms and reconnecting would send twice as many, each behind the last.
    expect(sent).toBeLessThanOrEqual(5);
    const window = recorder.window(0, 1);
    expect(window.requests.ok).toBe(0);
    expect(window.failureCounts.timeouts).toBeGreaterThan(0);
    expect(window.failureSamples[0]!.message).toBe('no response within 0.15 s');
  });
});
