/** What the tables say about steadiness, sharing and bucket costs. */
import { describe, expect, it } from 'vitest';
import { renderBucketTable, renderBucketTableMarkdown } from './bucket-table.js';
import { renderReportHtml } from './report-html.js';
import { renderStepTable } from './step-table.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import { makeRunFixture, withOutcome } from '../test-fixtures/run-fixture.js';

function unsteadyRun() {
  const run = makeRunFixture();
  const step = run.steps[1]!;
  step.status = 'unsteady';
  step.steadiness = { steady: false, reasons: ['throughput trended +24.0% across the window (t 4.1)'], trendPercent: 24, cvPercent: 9 };
  step.fanout = 0.2;
  return withOutcome(run);
}

describe('unsteady steps and shared requests', () => {
  it('shows an unsteady step as such in the terminal, with its reason, and never as FAILED', () => {
    const table = renderStepTable(unsteadyRun());
    expect(table).toMatch(/^\s*100\s+unsteady\s/m);
    expect(table).toContain('unsteady c=100: throughput trended +24.0% across the window (t 4.1)');
    expect(table).not.toMatch(/FAILED c=100:/);
  });

  it('shows the connections each step opened in its window, a dash where they were not counted', () => {
    const run = makeRunFixture();
    run.steps[0]!.connectionsOpened = { step: 10, window: 0 };
    run.steps[1]!.connectionsOpened = { step: 7823, window: 7723 };
    const md = renderSummaryMarkdown(withOutcome(run));
    const header = md.split('\n').find((line) => line.includes('| connections opened |'))!;
    const column = header
      .split('|')
      .map((cell) => cell.trim())
      .indexOf('connections opened');
    const cells = md
      .split('\n')
      .filter((line) => /^\| \d+ \|/.test(line) && line.split('|').length === header.split('|').length)
      .map((row) => row.split('|').map((c) => c.trim())[column]);
    expect(cells).toEqual(['0', '7,723', '–']);
  });

  it('explains a fan-out below that of one request at a time as sharing', () => {
    const md = renderSummaryMarkdown(unsteadyRun());
    expect(md).toContain('c=100: fan-out 0.20 against 7.00 for one request at a time: the gateway merged subgraph calls across concurrent requests');
    expect(md).toContain('(this stream repeats one request: the default scenario varies them)');
    expect(md).toMatch(/## Steady state/);
    expect(md).toContain('*unsteady*');
  });

  it("adds the unsteady count to the run's verdict", () => {
    expect(renderReportHtml(unsteadyRun())).toContain('1 STEP FAILED (1 unsteady)');
  });
});

describe('bucket costs', () => {
  it('gives ms per successful request beside the shares, idle left out', () => {
    const table = renderBucketTable(makeRunFixture(), 'ms');
    const [header, , row] = table.split('\n');
    expect(header).toMatch(/^conc\s+busy ms\/req\s+gc\s+program\s+parse/);
    expect(header).not.toMatch(/\bidle\b/);
    // The fixture's ms per request are 5 × its shares: parse 0.1234 → 0.62 ms.
    expect(row).toMatch(/^\s*10\s+4\.40\s+0\.50\s+0\.25\s+0\.62/);
  });

  it("shows Node's own GC figure beside the gc bucket when the run has it", () => {
    const run = makeRunFixture();
    run.analysis!.steps[0]!.gc = { profileShare: 0.1, nodeShare: 0.093, differencePoints: 0.7, disagrees: false };
    const md = renderBucketTableMarkdown(run);
    expect(md.split('\n')[0]).toMatch(/\| Node gc % \|$/);
    expect(md.split('\n')[2]).toMatch(/\| 9\.3 \|$/);
  });

  it('lists each bucket’s functions with ms per request and file in the report', () => {
    const html = renderReportHtml(makeRunFixture());
    expect(html).toContain('id="bucket-ms-table"');
    expect(html).toMatch(/<details class="bucket-drilldown" data-level="10">/);
    expect(html).toContain('graphql/language/parser.js:120');
  });
});
