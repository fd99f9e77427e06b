import { describe, expect, it } from 'vitest';
import { LoadRecorder } from './recorder.js';

const ok = (latencyMs: number) => ({ ok: true as const, latencyMs, orderWarning: false, bytes: 100 });

describe('LoadRecorder', () => {
  it('counts the connections opened by second, and the most requests in flight at once', () => {
    const recorder = new LoadRecorder(0);
    for (let i = 0; i < 4; i++) recorder.onConnect(10);
    for (let i = 0; i < 4; i++) recorder.onSend(20);
    recorder.onComplete(1_500, ok(1_480));
    recorder.onConnect(1_600);
    recorder.onSend(1_600);
    expect(recorder.connectionsOpened).toBe(5);
    expect(recorder.window(0, 2)).toMatchObject({ connectionsOpened: 5, peakInFlight: 4 });
    expect(recorder.window(1, 2)).toMatchObject({ connectionsOpened: 1, peakInFlight: 4 });
  });

  it('counts a response in the second it completed in, whenever it was sent', () => {
    const recorder = new LoadRecorder(10_000);
    for (let i = 0; i < 5; i++) recorder.onSend(10_000);
    recorder.onComplete(10_999, ok(900)); // second 0
    recorder.onComplete(11_000, ok(1_000)); // second 1: sent in second 0, counted in 1
    recorder.onComplete(12_500, ok(2_500)); // second 2
    recorder.onComplete(13_100, { ok: false, kind: 'timeouts', message: 'no response within 3 s', bytes: 0 }); // second 3
    const window = recorder.window(1, 3);
    expect(window.requests).toEqual({ total: 2, ok: 2, failed: 0 });
    expect(window.latencyMs!.max).toBeCloseTo(2500, 0);
    expect(window.latencyMs!.p50).toBeCloseTo(1000, 0);
    expect(recorder.window(0, 4).requests).toEqual({ total: 4, ok: 3, failed: 1 });
    expect(recorder.window(3, 4).failureCounts.timeouts).toBe(1);
    expect(recorder.okPerSecond(0, 4)).toEqual([1, 1, 1, 0]);
  });

  it('counts a timeout at least as the timeout in the mean round trip, not in the mean latency', () => {
    const recorder = new LoadRecorder(0);
    for (let i = 0; i < 4; i++) recorder.onSend(0);
    recorder.onComplete(1_000, ok(1_000));
    recorder.onComplete(2_000, ok(2_000));
    recorder.onTimedOut(10_000, { ok: false, kind: 'timeouts', message: 'no response within 10 s', bytes: 0 });
    recorder.onComplete(10_500, { ok: false, kind: 'socketErrors', message: 'socket hang up', bytes: 0 });
    const tally = recorder.tally(0, 11, 10_000);
    expect(tally).toMatchObject({ ok: 2, failed: 2, meanLatencyMs: 1_500 });
    // (1,000 + 2,000 + 10,000) / 3: the socket error is not a round trip of known length.
    expect(tally.meanRoundTripMs).toBeCloseTo(13_000 / 3, 6);
    expect(recorder.tally(0, 3, 10_000).meanRoundTripMs).toBe(1_500);
    expect(recorder.tally(5, 9, 10_000).meanRoundTripMs).toBeNull();
  });

  it('keeps what is still in flight apart from what completed', () => {
    const recorder = new LoadRecorder(0);
    for (let i = 0; i < 3; i++) recorder.onSend(0);
    recorder.onComplete(500, ok(500));
    expect(recorder.inFlight).toBe(2);
    expect(recorder.sent).toBe(3);
    expect(recorder.window(0, 1).requests.total).toBe(1);
  });

  it('merges failure samples of several seconds, with their counts', () => {
    const recorder = new LoadRecorder(0);
    for (const at of [100, 1_100, 1_200]) {
      recorder.onSend(at);
      recorder.onComplete(at, { ok: false, kind: 'non2xx', message: 'HTTP 502: bad gateway', bytes: 20 });
    }
    const window = recorder.window(0, 2);
    expect(window.failureSamples).toEqual([{ kind: 'non2xx', message: 'HTTP 502: bad gateway', count: 3 }]);
    expect(window.bytesPerResponse).toBe(20);
    expect(recorder.second(1)).toEqual({ ok: 0, failed: 2, p50Ms: null, p99Ms: null });
  });
});
