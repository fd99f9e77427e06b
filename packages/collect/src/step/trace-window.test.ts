import { describe, expect, it } from 'vitest';
import { traceSample } from './trace-window.js';

describe("a traced window's sample", () => {
  it('gives each answered request the calls that carried its trace id, in its own time, and leaves other traces out', () => {
    const sample = traceSample(
      [
        { traceId: 'a', start: 1000, end: 1050 },
        { traceId: 'b', start: 2000, end: 2010 },
      ],
      {
        accounts: {
          name: 'accounts',
          calls: [
            { traceId: 'a', start: 1010.5, end: 1020.25, bytes: 7 },
            { traceId: 'z', start: 1500, end: 1510, bytes: 1 },
          ],
          dropped: 2,
        },
        reviews: { name: 'reviews', calls: [{ traceId: 'a', start: 1005, end: 1009, bytes: 3 }], dropped: 0 },
        inventory: null,
      },
      { perSecond: 25, perWindow: 500 },
    );
    expect(sample.requests).toEqual([
      {
        traceId: 'a',
        latencyMs: 50,
        calls: [
          { subgraph: 'reviews', startMs: 5, endMs: 9, bytes: 3 },
          { subgraph: 'accounts', startMs: 10.5, endMs: 20.25, bytes: 7 },
        ],
      },
      { traceId: 'b', latencyMs: 10, calls: [] },
    ]);
    expect(sample.unlogged).toEqual(['inventory']);
    expect(sample.droppedCalls).toBe(2);
  });

  it('places calls without a trace id by timing when requests went one at a time and no call carried a sampled id', () => {
    const sample = traceSample(
      [
        { traceId: 'early', start: 900, end: 950 },
        { traceId: 'a', start: 1000, end: 1050 },
        { traceId: 'b', start: 1100, end: 1130 },
      ],
      {
        accounts: {
          name: 'accounts',
          calls: [
            { traceId: '', start: 920, end: 930, bytes: 1 },
            { traceId: '', start: 1010, end: 1020, bytes: 2 },
            { traceId: '', start: 1060, end: 1070, bytes: 3 },
            { traceId: '', start: 1105, end: 1125, bytes: 4 },
          ],
          dropped: 0,
        },
      },
      { perSecond: 25, perWindow: 500 },
      980,
    );
    expect(sample.attribution).toBe('timing');
    // 'early' was sent before the subgraphs logged untraced calls: left out; the call at 1060 fell between two sampled requests.
    expect(sample.requests).toEqual([
      { traceId: 'a', latencyMs: 50, calls: [{ subgraph: 'accounts', startMs: 10, endMs: 20, bytes: 2 }] },
      { traceId: 'b', latencyMs: 30, calls: [{ subgraph: 'accounts', startMs: 5, endMs: 25, bytes: 4 }] },
    ]);
  });

  it('keeps to trace ids when calls carried them, whatever else was logged', () => {
    const sample = traceSample(
      [{ traceId: 'a', start: 1000, end: 1050 }],
      {
        accounts: {
          name: 'accounts',
          calls: [
            { traceId: 'a', start: 1010, end: 1020, bytes: 2 },
            { traceId: '', start: 1030, end: 1040, bytes: 1 },
          ],
          dropped: 0,
        },
      },
      { perSecond: 25, perWindow: 500 },
      980,
    );
    expect(sample.attribution).toBeUndefined();
    expect(sample.requests[0]!.calls).toHaveLength(1);
  });
});
