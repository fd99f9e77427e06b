/**
 * End to end: `sweep --trace` on Hive Gateway over the real subgraphs, with 80 ms planted in the
 * reviews subgraph alone. The traced requests' split must put that delay on the subgraph critical
 * path under reviews, by its size (80 ms for each round of reviews calls the gateway waited on), leave
 * the gateway's own parts small, and add up to the measured latency. Hive Gateway also exports its
 * own spans to gwprof's OTLP receiver: its phases must sit in the same requests, and its fetches
 * to reviews must hold the delay as the subgraph saw it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResult, TracedRequest } from '@gwprof/results';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, portArgs, runCli, tempDir } from './cli.js';

const BASE_PORT = 4800;
const DELAY_MS = 80;
let result: CliResult;
let run: RunResult;
let runDir: string;

/** Rounds of reviews calls in a request: groups of calls to it that overlap, one after another. */
function reviewsRounds(request: TracedRequest): number {
  const calls = request.calls.filter((call) => call.subgraph === 'reviews').sort((a, b) => a.startMs - b.startMs);
  let rounds = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    if (call.startMs >= end) rounds++;
    end = Math.max(end, call.endMs);
  }
  return rounds;
}

describe('sweep --trace', () => {
  beforeAll(async () => {
    const out = tempDir('traces');
    result = await runCli([
      'sweep',
      '--gateway',
      'hive',
      '-c',
      '4',
      '-d',
      '3',
      '-w',
      '1',
      '--trace',
      '--subgraph-delay',
      `reviews=${DELAY_MS}ms`,
      '--no-profile',
      '--no-allocation-attribution',
      '--out',
      out,
      '--run-id',
      'e2e',
      ...portArgs(BASE_PORT),
    ]);
    runDir = path.join(out, 'e2e');
    run = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as RunResult;
  }, 120_000);

  it('traces the window’s requests and finds every subgraph call of theirs, the gateway forwarding the trace context', () => {
    expect(result.code, result.stderr).toBe(0);
    const sample = run.steps[0]!.traces!;
    expect(sample.requests.length).toBeGreaterThan(10);
    expect(sample.unlogged).toEqual([]);
    expect(sample.droppedCalls).toBe(0);
    for (const request of sample.requests) {
      expect(request.calls.length).toBeGreaterThan(0);
      // Every reviews call holds the planted delay; the others do not.
      for (const call of request.calls) {
        expect(call.bytes).toBeGreaterThan(0);
        if (call.subgraph === 'reviews') expect(call.endMs - call.startMs).toBeGreaterThanOrEqual(DELAY_MS - 1);
      }
    }
  });

  it('puts the planted delay on the critical path under reviews, by its size, and the parts add up to the latency', () => {
    const split = run.analysis!.traceSplits![0]!;
    expect(split.missing).toBeNull();
    const all = split.all!;
    const requests = run.steps[0]!.traces!.requests;
    const rounds = requests.reduce((sum, request) => sum + reviewsRounds(request), 0) / requests.length;
    expect(rounds).toBeGreaterThanOrEqual(1);
    // 80 ms a round of reviews calls, plus what a reviews call costs beside the delay (a few ms).
    expect(all.criticalPathMs.reviews!).toBeGreaterThanOrEqual(DELAY_MS * rounds - 1);
    expect(all.criticalPathMs.reviews!).toBeLessThanOrEqual(DELAY_MS * rounds + 20);
    // The undelayed subgraphs' share is small beside it. The gateway's own parts are not compared: they
    // grow with the machine's load, and the bounds above already place the delay by its size.
    const others = Object.entries(all.criticalPathMs).filter(([name]) => name !== 'reviews');
    expect(others.reduce((sum, [, ms]) => sum + ms, 0)).toBeLessThan(all.criticalPathMs.reviews! / 2);
    // The parts add up to the mean latency (means of exact per-request sums, rounded to µs each).
    const parts = all.beforeFirstCallMs + Object.values(all.criticalPathMs).reduce((a, b) => a + b, 0) + all.gapsMs + all.afterLastCallMs;
    expect(Math.abs(parts - all.latencyMs)).toBeLessThan(0.05);
    // The engine's and the subgraphs' clocks agree: at most 2 ms of any request's calls fell outside it.
    expect(all.maxClippedMs).toBeLessThan(2);
    // The traced latencies are the step's: their mean within 25% of the window's.
    expect(all.latencyMs).toBeGreaterThan(run.steps[0]!.latencyMs!.mean * 0.75);
    expect(all.latencyMs).toBeLessThan(run.steps[0]!.latencyMs!.mean * 1.25);
  });

  it("places the gateway's own spans in the traced requests, and its fetches agree with the calls the subgraphs saw", () => {
    const sample = run.steps[0]!.traces!;
    expect(sample.spans!.rejected).toBe(0);
    const withSpans = sample.requests.filter((request) => (request.spans?.length ?? 0) > 0);
    expect(withSpans.length).toBeGreaterThanOrEqual(sample.requests.length * 0.9);
    for (const request of withSpans) {
      // The server span lies within the request, as the engine timed it (Hive's span starts are whole ms).
      const server = request.spans!.find((span) => span.kind === 'server')!;
      expect(server.startMs).toBeGreaterThan(-1.5);
      expect(server.endMs).toBeLessThan(request.latencyMs + 1.5);
      // Its fetches to reviews hold the planted delay.
      for (const span of request.spans!.filter((s) => s.kind === 'client' && s.subgraph === 'reviews'))
        expect(span.endMs - span.startMs).toBeGreaterThanOrEqual(DELAY_MS - 1);
    }
    const gateway = run.analysis!.traceSplits![0]!.gatewaySpans!;
    const phases = gateway.phasesMs.map((phase) => phase.name);
    for (const phase of ['graphql.parse', 'graphql.validate', 'graphql.execute']) expect(phases).toContain(phase);
    // The gateway's HTTP client spans against the subgraphs' own view of the same calls: a span holds
    // its call (the gateway's client, the loopback and its reading the answer on top).
    const agreement = gateway.fetchAgreement!;
    expect(agreement.pairs).toBeGreaterThan(withSpans.length);
    expect(agreement.medianDiffMs).toBeGreaterThan(-1.5);
    expect(agreement.medianDiffMs).toBeLessThan(10);
  });

  it('shows the split in summary.md and the slowest requests’ waterfalls in index.html', () => {
    const summary = readFileSync(path.join(runDir, 'summary.md'), 'utf8');
    expect(summary).toContain('## Where the time went (traced requests)');
    expect(summary).toMatch(/\| c=4 \| all \| \d+ \|/);
    expect(summary).toContain("### The gateway's own phases (its OTLP spans)");
    const html = readFileSync(path.join(runDir, 'index.html'), 'utf8');
    expect((html.match(/<svg class="chart waterfall"/g) ?? []).length).toBe(5);
  });
});
