/**
 * The slow tier (`pnpm test:slow`): `sweep --trace` on Hive Router and Apollo Router over gwprof's
 * Node subgraphs (they log the calls), 80 ms planted in reviews. Each router must forward the trace
 * context (every traced request finds its subgraph calls by trace id), put the delay on the critical
 * path under reviews, and export its own spans to gwprof's receiver: its fetches to reviews hold the
 * delay, and its client spans agree with the calls the subgraphs saw. Not in CI's tiers: the routers
 * are built by cargo on first use (minutes each), which CI does not do.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { portArgs, runCli, tempDir } from './cli.js';

const DELAY_MS = 80;
const ROUTERS = [
  { gateway: 'hive-router', basePort: 4820 },
  { gateway: 'apollo-router', basePort: 4830 },
] as const;

async function tracedSweep(gateway: string, basePort: number): Promise<{ run: RunResult; runDir: string; code: number | null; stderr: string }> {
  const out = tempDir(`traces-${gateway}`);
  const result = await runCli([
    ...['sweep', '--gateway', gateway, '--subgraphs', 'node', '-c', '4', '-d', '3', '-w', '1', '--trace'],
    ...['--subgraph-delay', `reviews=${DELAY_MS}ms`, '--no-profile', '--no-allocation-attribution', '--out', out, '--run-id', 'e2e', ...portArgs(basePort)],
  ]);
  const runDir = path.join(out, 'e2e');
  return { run: JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as RunResult, runDir, ...result };
}

describe.each(ROUTERS)('sweep --trace on $gateway', ({ gateway, basePort }) => {
  it('forwards the trace context, splits each request by it, and places its own spans against the calls the subgraphs saw', async () => {
    const { run, runDir, code, stderr } = await tracedSweep(gateway, basePort);
    expect(code, stderr).toBe(0);
    const step = run.steps[0]!;
    const sample = step.traces!;
    expect(sample.requests.length).toBeGreaterThan(10);
    expect(sample.unlogged).toEqual([]);
    // Forwarded: every traced request found its calls by its own trace id, as many as the fan-out.
    const split = run.analysis!.traceSplits![0]!;
    expect(split.missing).toBeNull();
    for (const request of sample.requests) expect(request.calls.length).toBeGreaterThan(0);
    expect(split.all!.callsPerRequest).toBeGreaterThan(step.fanout! - 1);
    expect(split.all!.callsPerRequest).toBeLessThan(step.fanout! + 1);
    // The planted delay on the critical path under reviews: at least one round of it.
    expect(split.all!.criticalPathMs.reviews!).toBeGreaterThanOrEqual(DELAY_MS - 1);
    // Its own spans: in nearly every traced request, its fetches to reviews holding the delay.
    expect(sample.spans!.rejected).toBe(0);
    const withSpans = sample.requests.filter((request) => (request.spans?.length ?? 0) > 0);
    expect(withSpans.length).toBeGreaterThanOrEqual(sample.requests.length * 0.9);
    const reviewsFetches = withSpans.flatMap((request) => request.spans!.filter((span) => span.kind === 'client' && span.subgraph === 'reviews'));
    expect(reviewsFetches.length).toBeGreaterThan(0);
    for (const span of reviewsFetches) expect(span.endMs - span.startMs).toBeGreaterThanOrEqual(DELAY_MS - 1);
    // Its client spans against the subgraphs' own view of the same calls: a span holds its call.
    const agreement = split.gatewaySpans!.fetchAgreement!;
    expect(agreement.pairs).toBeGreaterThan(withSpans.length);
    expect(agreement.medianDiffMs).toBeGreaterThan(-1.5);
    expect(agreement.medianDiffMs).toBeLessThan(10);
    const html = readFileSync(path.join(runDir, 'index.html'), 'utf8');
    expect((html.match(/<svg class="chart waterfall"/g) ?? []).length).toBe(5);
  }, 600_000);
});
