import { stepTraceSplit } from '@gwprof/analysis';
import type { RunResult, TraceSample } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { findExternalResourceLoads } from '../test-fixtures/external-resources.js';
import { SCRIPT_TAG, makeRunFixture } from '../test-fixtures/run-fixture.js';
import { renderReportHtml } from './report-html.js';
import { renderSummaryMarkdown } from './summary-markdown.js';

/** A run whose first step traced three requests: accounts, then reviews and products in parallel. */
function tracedRun(): RunResult {
  const run = makeRunFixture();
  const sample: TraceSample = {
    sampling: { perSecond: 25, perWindow: 500 },
    requests: [10, 20, 100].map((latencyMs, i) => ({
      traceId: `${SCRIPT_TAG}${i}`,
      latencyMs,
      calls: [
        { subgraph: 'accounts', startMs: 1, endMs: 3, bytes: 50 },
        { subgraph: 'reviews', startMs: 4, endMs: latencyMs - 2, bytes: 500 },
        { subgraph: 'products', startMs: 4, endMs: 6, bytes: 80 },
      ],
    })),
    unlogged: [],
    droppedCalls: 0,
  };
  run.steps[0]!.traces = sample;
  run.analysis!.traceSplits = [
    stepTraceSplit(run.steps[0]!.id, sample),
    stepTraceSplit(run.steps[1]!.id, { ...sample, requests: [{ traceId: 'x', latencyMs: 5, calls: [] }] }),
  ];
  return run;
}

describe('the trace split on the pages', () => {
  const run = tracedRun();

  it('summary.md has a row per traced step and its p99 requests, with the critical path by subgraph, and says why a split is missing', () => {
    const md = renderSummaryMarkdown(run);
    expect(md).toContain('## Where the time went (traced requests)');
    const rows = md.split('\n').filter((line) => line.startsWith('| c=10 |'));
    // all: before 1, accounts 2, gap 1, reviews (4+14+94)/3 = 37.3, after 2 (products is parallel to reviews: 2 ms in parallel).
    expect(rows[0]).toContain('| all | 3 | 43.3 | 1.0 | accounts 2.0 · reviews 37.3 | 1.0 | 2.0 | 2.0 | 3.0 |');
    expect(rows[1]).toContain('| p99 | 1 | 100 | 1.0 | accounts 2.0 · reviews 94.0 |');
    expect(md).toContain("no trace context forwarded: none of the 1 traced requests' trace ids reached a subgraph");
  });

  it('index.html draws the slowest requests as waterfalls, escaped, and loads nothing', () => {
    const html = renderReportHtml(run);
    expect(html).toContain('id="trace-split"');
    expect(html.match(/<svg class="chart waterfall"/g)).toHaveLength(3);
    expect(html).toContain('reviews: 4.0–98.0 ms (94.0 ms, 500 bytes)');
    expect(html).not.toContain(SCRIPT_TAG);
    expect(findExternalResourceLoads(html)).toEqual([]);
  });

  it("shows the gateway's own phases, its client spans against the proxy's calls, and its spans in the waterfalls", () => {
    const withSpans = tracedRun();
    const sample = withSpans.steps[0]!.traces!;
    sample.spans = { received: 9, matched: 9, dropped: 0, rejected: 0 };
    for (const request of sample.requests)
      request.spans = [
        { name: 'POST /graphql', kind: 'server', startMs: 0.5, endMs: request.latencyMs - 0.5, depth: 0, parent: null },
        { name: 'graphql.parse', kind: 'internal', startMs: 0.5, endMs: 0.75, depth: 1, parent: 0 },
        { name: `fetch ${SCRIPT_TAG}`, kind: 'client', startMs: 0.9, endMs: 3.5, depth: 1, parent: 0, subgraph: 'accounts' },
      ];
    withSpans.analysis!.traceSplits = [stepTraceSplit(withSpans.steps[0]!.id, sample)];
    const md = renderSummaryMarkdown(withSpans);
    expect(md).toContain("### The gateway's own phases (its OTLP spans)");
    // (9 + 19 + 99) / 3 = 42.3 ms in the server span; each request's one client span is 2.6 ms to the call's 2 ms: 3 calls, 1 span: not paired.
    expect(md).toMatch(/\| c=10 \| 3 \| POST \/graphql 42\.3 \(×1\) · .*graphql\.parse 0\.25 \(×1\) \| – \|/);
    const html = renderReportHtml(withSpans);
    expect(html).toContain('id="gateway-phases"');
    expect(html).toContain('gateway span graphql.parse (internal): 0.50–0.75 ms (0.25 ms)');
    expect(html).not.toContain(SCRIPT_TAG);
  });
});
