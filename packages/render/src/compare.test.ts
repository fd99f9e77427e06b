import { describe, expect, it } from 'vitest';
import { stripAnsi } from './ansi.js';
import { renderCompareReportHtml } from './compare-html.js';
import { renderCompareMarkdown } from './compare-markdown.js';
import { renderCompareTable } from './compare-table.js';
import { findExternalResourceLoads } from './external-resources.js';
import { makeCompareFixture } from './test-fixtures/run-fixture.js';

function tableRow(md: string, label: string): string[] {
  const line = md.split('\n').find((l) => l.startsWith(`| ${label} |`));
  if (!line) throw new Error(`no row ${label}`);
  return line.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, ''));
}

describe('renderCompareMarkdown (trials)', () => {
  const md = renderCompareMarkdown(makeCompareFixture());

  it('leads with the verdict in a clear word', () => {
    expect(md.split('\n')[0]).toBe('## gwprof compare: REGRESSION');
    expect(md).toContain('**Verdict: REGRESSION**');
    expect(md).toContain('- c=50 rps −10.0% (CI −11.5%…−8.5%) beyond the 5% threshold');
    expect(md).toContain('Stopped: all metrics decided after 5 trials per side');
  });

  it('has the baseline / candidate / delta / CI / verdict / trials table', () => {
    expect(md).toContain('| metric | baseline | candidate | delta | 95% CI | verdict | trials |');
    expect(tableRow(md, 'throughput (ok req/s)')).toEqual([
      'throughput (ok req/s)', '200 req/s', '180 req/s', '-10.0%', '[-11.5%, -8.5%]', '**regression**', '5/5',
    ]);
    expect(tableRow(md, 'p99 latency')).toEqual(['p99 latency', '22.0 ms', '28.0 ms', '+4.0%', '[-20.0%, +30.0%]', 'inconclusive', '5/5']);
  });

  it('names the CPU buckets that moved most, largest first', () => {
    expect(md).toContain('execute +6.0 pp (30.0% → 36.0%), gc -1.0 pp (10.0% → 9.0%), idle +0.1 pp (5.0% → 5.1%)');
  });

  it('summarises the environment and says how to reproduce, untrusted text in code', () => {
    expect(md).toContain('- Machine: Fake CPU &lt;script&gt;alert(1)&lt;/script&gt; × 2');
    expect(md).toContain("--candidate-env 'NODE_OPTIONS=--require ./slow.cjs'");
    expect(md).toMatch(/```sh\npnpm gwprof compare --baseline mesh --candidate '/);
    const outsideCode = md.replace(/(`+)[\s\S]*?\1/g, '');
    expect(outsideCode).not.toContain('<script');
  });

  it('reproduces with the recorded command line when there is one', () => {
    const compare = makeCompareFixture();
    compare.environment!.commandLine = ['node', '/x/bin.js', 'compare', '--baseline', 'mesh', '--candidate', 'hive'];
    expect(renderCompareMarkdown(compare)).toContain('pnpm gwprof compare --baseline mesh --candidate hive\n');
  });

  it('lists trials that failed validation', () => {
    const compare = makeCompareFixture();
    compare.analysis.verdict = 'invalid';
    const trial = compare.trials[3]!;
    trial.step = { ...trial.step, status: 'failed', failures: ['success rate 90.0% below 100%'] };
    const md2 = renderCompareMarkdown(compare);
    expect(md2.split('\n')[0]).toBe('## gwprof compare: INVALID COMPARISON');
    expect(md2).toContain('- candidate trial 2 at c=50: success rate 90.0% below 100%');
  });
});

describe('renderCompareMarkdown (runs)', () => {
  const md = renderCompareMarkdown(makeCompareFixture('runs'));

  it('shows deltas only: no CI, verdict or trials columns', () => {
    expect(md.split('\n')[0]).toBe('## gwprof compare: DELTAS ONLY');
    expect(md).toContain('| metric | baseline | candidate | delta |\n');
    expect(md).not.toContain('95% CI');
    expect(md).not.toMatch(/\*\*regression\*\*|inconclusive/);
    expect(tableRow(md, 'throughput (ok req/s)')).toEqual(['throughput (ok req/s)', '200 req/s', '180 req/s', '-10.0%']);
    expect(md).toContain('pnpm gwprof compare --baseline-run mesh --candidate-run');
  });
});

describe('renderCompareTable', () => {
  it('shows per level each metric with medians, delta, CI and verdict, then the overall verdict', () => {
    const out = renderCompareTable(makeCompareFixture());
    expect(out).toMatch(/c=50\n/);
    expect(out).toMatch(/throughput \(ok req\/s\)\s+req\/s\s+200\s+180\s+-10\.0%\s+\[-11\.5%, -8\.5%\]\s+regression\s+5\/5/);
    expect(out).toContain('CPU buckets moved most: execute +6.0 pp');
    expect(out).toMatch(/Verdict: REGRESSION\n {2}- c=50 rps/);
    expect(out).toContain('Stopped: all metrics decided after 5 trials per side');
  });

  it('paints regressions red when color is on', () => {
    const colored = renderCompareTable(makeCompareFixture(), { color: true });
    expect(colored).toContain('\u001b[31mregression');
    expect(stripAnsi(colored)).toBe(renderCompareTable(makeCompareFixture()));
  });

  it('has no CI or verdict columns for two finished runs', () => {
    const out = renderCompareTable(makeCompareFixture('runs'));
    expect(out).not.toContain('95% CI');
    expect(out).not.toMatch(/\bregression\b/);
    expect(out).toContain('Deltas only');
  });
});

describe('renderCompareReportHtml', () => {
  const html = renderCompareReportHtml(makeCompareFixture());

  it('escapes the gateway specs and environment', () => {
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('cmd:node ./pr/gateway.js &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script\b/i);
  });

  it('shows both sides per level, bucket deltas, trial dots, and loads nothing', () => {
    expect(html).toContain('id="compare-table-c50"');
    expect(html).toMatch(/data-metric="rps" data-verdict="regression"/);
    expect(html).toContain('id="bucket-deltas-c50"');
    const dots = html.slice(html.indexOf('id="trials-c50-rps"'), html.indexOf('</svg>', html.indexOf('id="trials-c50-rps"')));
    expect(dots.match(/<circle class="trial"/g)).toHaveLength(10);
    expect(html.match(/class="flamegraph-link"/g)).toHaveLength(10);
    expect(findExternalResourceLoads(html)).toEqual([]);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('renders runs mode without CI or verdict columns', () => {
    const runs = renderCompareReportHtml(makeCompareFixture('runs'));
    expect(runs).not.toContain('95% CI');
    expect(runs).toContain('DELTAS ONLY');
  });
});
