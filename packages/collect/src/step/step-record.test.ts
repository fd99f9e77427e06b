/** The step record's count of connections opened, and its warning when the load's shape changed. */
import { describe, expect, it } from 'vitest';
import type { WindowStats } from '../load/recorder.js';
import { buildStepRecord, type StepParts } from './step-record.js';

function parts(load: StepParts['load'], connectionsOpened: number | null, stats: Partial<WindowStats>): StepParts {
  return {
    id: 'c4',
    load,
    startedAt: '2026-11-29T00:00:00.000Z',
    settle: { startedAt: '2026-11-29T00:00:00.000Z', seconds: 0, settled: true, cpuPercent: 0 },
    warmup: { seconds: 3, steady: true, note: '' },
    window: {
      start: 3,
      seconds: 5,
      limitedBy: 'minimum',
      note: null,
      inFlightAtEnd: 0,
      measurements: {
        gateway: null,
        subgraphs: {},
        subgraphRequests: null,
        loadgenCpuSeconds: 0,
        helpers: {},
        cores: { gateway: null, harness: null },
        warnings: [],
        profile: null,
      },
    },
    stats: {
      requests: { total: 1000, ok: 1000, failed: 0 },
      sent: 1000,
      dropped: 0,
      lagMs: null,
      connectionsOpened: 0,
      peakInFlight: 4,
      failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0, protocolErrors: 0 },
      failureSamples: [],
      orderWarnings: 0,
      latencyMs: null,
      bytesPerResponse: 10,
      ...stats,
    },
    series: [],
    steadiness: { steady: true, reasons: [], trend: { relativeChange: 0 }, cv: 0 },
    minSuccess: 0.99,
    gatewayExit: null,
    connectionsOpened,
  } as unknown as StepParts;
}

describe('buildStepRecord: connections opened', () => {
  it('records them, and says the load changed shape past twice the connections plus 10 in the window', () => {
    const closed = { kind: 'closed', concurrency: 4 } as const;
    const steady = buildStepRecord(parts(closed, 4 + 18, { connectionsOpened: 18 }));
    expect(steady.connectionsOpened).toEqual({ step: 22, window: 18 });
    expect(steady.warnings.join('\n')).not.toMatch(/shape/);
    const churned = buildStepRecord(parts(closed, 7727, { connectionsOpened: 7723 }));
    expect(churned.warnings).toContain(
      "the load's shape changed: 7723 connections opened in the 5 s window for 4 connections (connections were closed and opened again; each reconnect costs the gateway and the load generator)",
    );
    const open = { kind: 'open', targetRps: 200, arrivals: 'poisson', maxInFlight: 1000 } as const;
    expect(buildStepRecord(parts(open, 900, { connectionsOpened: 900, peakInFlight: 3 })).warnings.join('\n')).toMatch(/at most 3 requests in flight/);
  });

  it('records none for an engine it cannot see (k6)', () => {
    const record = buildStepRecord(parts({ kind: 'closed', concurrency: 4 }, null, { connectionsOpened: 0 }));
    expect(record).not.toHaveProperty('connectionsOpened');
  });
});
