/** The closed-loop engine against a stub gateway with a known service time (a real process). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubGateway, stubScenario, type StubGateway } from '../testing/stub-gateway.js';
import { startClosedLoop } from './closed-loop.js';
import { LoadRecorder } from './recorder.js';
import { RequestStream } from './request-stream.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('closed-loop load', () => {
  let stub: StubGateway;
  beforeAll(async () => {
    stub = await startStubGateway(4871, { STUB_SERVICE_MS: 300 });
  });
  afterAll(() => stub?.stop());

  it('keeps every connection busy and counts responses by the second they completed in', async () => {
    // One request at a time, 300 ms each: completions at about 0.3, 0.6, 0.9 … s.
    const recorder = new LoadRecorder(performance.now());
    const load = startClosedLoop({ url: stub.url, connections: 2, timeoutMs: 10_000, stream: new RequestStream(stubScenario()), recorder });
    await sleep(3_150);
    const inFlight = recorder.inFlight;
    await load.stop();
    // Two connections share one server thread: each response takes about 600 ms, 3.3 per second.
    const window = recorder.window(1, 3);
    expect(inFlight).toBe(2);
    expect(window.requests.failed).toBe(0);
    expect(window.requests.ok).toBeGreaterThanOrEqual(5);
    expect(window.requests.ok).toBeLessThanOrEqual(8);
    expect(window.latencyMs!.p50).toBeGreaterThan(450);
    expect(recorder.okPerSecond(1, 3).reduce((a, b) => a + b, 0)).toBe(window.requests.ok);
    // Little's law: responses per second × mean latency = connections.
    const little = ((window.requests.ok / 2) * window.latencyMs!.mean) / 1000 / 2;
    expect(little).toBeGreaterThan(0.6);
    expect(little).toBeLessThan(1.4);
  });

  it('counts a request unanswered within the timeout as a timeout, never as a success, and keeps its connection', async () => {
    const recorder = new LoadRecorder(performance.now());
    const load = startClosedLoop({ url: stub.url, connections: 1, timeoutMs: 150, stream: new RequestStream(stubScenario()), recorder });
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
