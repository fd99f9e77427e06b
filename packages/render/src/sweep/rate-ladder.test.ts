/** How a fixed-rate sweep reads: the seeds' TPS ladder, overloaded rungs, capacity by rate and SLO. */
import { describe, expect, it } from 'vitest';
import { renderReportHtml } from './report-html.js';
import { renderStepTable } from './step-table.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import { makeRateRunFixture } from '../test-fixtures/run-fixture.js';

describe('a rate ladder', () => {
  const run = makeRateRunFixture();
  const md = (r: typeof run) => renderSummaryMarkdown(r);

  it('tabulates offered and achieved rates, drops, latency percentiles and lag per rung', () => {
    const table = renderStepTable(run);
    const [header] = table.split('\n');
    // In a terminal: mean, p80, p95 and max, RSS, gc and load generator CPU are summary.md's.
    expect(header).toMatch(/^req\/s\s+status\s+sent\/s\s+ok\/s\s+dropped\s+success %\s+p50 ms\s+p99 ms\s+lag p99 ms/);
    expect(table).toMatch(/^\s*100\s+ok\s+100\.0\s+99\.5\s+0\s+100\.0\s+22\.5\s+45\.0/m);
    expect(
      Math.max(
        ...table
          .split('\n')
          .filter((l) => /^\s*(req|\d+|-+)/.test(l))
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(120);
    expect(md(run)).toMatch(/\| req\/s \| status \| sent\/s \| ok\/s \| dropped \| success % \| mean ms \| p50 ms \| p80 ms/);
    expect(table).toMatch(/^\s*200\s+overloaded\s+187\.0\s+101\.0\s+130\s/m);
  });

  it('reads capacity by rate: the knee and the highest rate under the SLO, in seed 004’s form', () => {
    const md = renderSummaryMarkdown(run);
    expect(md).toContain('## Capacity (fixed-rate ladder)');
    expect(md).toContain('- Knee on rate: kept 100 req/s; broke at 200 req/s (101.0 successful req/s against 200 offered)');
    expect(md).toContain('- Highest rate meeting p99 ≤ 100 ms, success ≥ 99.99%: 100 req/s');
    expect(md).toContain('*overloaded*');
  });

  it('names every rung by its rate, never by the in-flight cap, in the steady-state table and the report', () => {
    const md = renderSummaryMarkdown(run);
    const steadyHeader = md.split('\n').find((line) => line.includes('| settle s |'))!;
    expect(steadyHeader).toMatch(/^\| req\/s \| settle s \|/);
    expect(md).toMatch(/^\| 200 \| [0-9.\\]+ \|/m);
    const html = renderReportHtml(run);
    expect(html).toContain('data-level="200"');
    expect(html).not.toContain('data-level="1000"');
  });

  it('charts latency against the offered rate, from intended send times', () => {
    const html = renderReportHtml(run);
    expect(html).toContain('Latency from intended send time against offered rate (ms)');
    expect(html).toContain('offered req/s');
    expect(html).toContain('knee 100–200 req/s');
  });
});
