import { comparisonOutcome, judgeRecord } from '@gwprof/analysis';
import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../ansi.js';
import { renderCompareReportHtml } from './compare-html.js';
import { renderCompareMarkdown } from './compare-markdown.js';
import { renderCompareTable } from './compare-table.js';
import { findExternalResourceLoads } from '../test-fixtures/external-resources.js';
import { makeCompareFixture } from '../test-fixtures/compare-fixture.js';
import { largestMoves } from './compare-rows.js';

function tableRow(md: string, label: string): string[] {
  const line = md.split('\n').find((l) => l.startsWith(`| ${label} |`));
  if (!line) throw new Error(`no row ${label}`);
  return line.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, ''));
}

describe('renderCompareMarkdown', () => {
  const md = renderCompareMarkdown(makeCompareFixture());

  it("links the run folder's files in its own copy, and names them in a copy for a PR, where relative links would break", () => {
    expect(md).toMatch(/\]\([^)]*\.pb\.gz\)/);
    const forPr = renderCompareMarkdown(makeCompareFixture(), { fileLinks: false });
    expect(forPr).not.toMatch(/\]\((?!https?:)[^)]*\)/);
    expect(forPr).toMatch(/`[^`]*\.pb\.gz`/);
  });

  it('leads with the verdict, its exit code, and the decision read off its interval, labelled with its level and looks', () => {
    expect(md.split('\n')[0]).toBe('## gwprof compare: REGRESSION');
    expect(md).toContain('(exit 1)');
    expect(md).toContain(
      'CPU per ok request +11.4% over 6 epochs (6 blocks); 90% interval [+9.0%, +13.8%], adjusted for a look after every epoch up to 12; it lies above 0: the candidate uses more CPU per request',
    );
    expect(md).toContain('Stopped: regression after 6 blocks');
  });

  it('has a table of geometric means, changes and 95% intervals labelled as such', () => {
    expect(md).toContain('| metric | unit | baseline | candidate | change | interval | windows b/c |');
    expect(tableRow(md, 'throughput (ok req/s)')).toEqual(['throughput (ok req/s)', 'req/s', '200', '180', '-10.0%', '[-11.5%, -8.5%] 95%', '3/3']);
    expect(tableRow(md, 'gateway CPU per ok request')[4]).toBe('+11.4%');
  });

  it('says what moved, per successful request: buckets, functions and the differential profile', () => {
    // Brackets are escaped in markdown (they render as brackets, never as a link).
    expect(md).toContain('execute +0.500 ms/req (1.200 → 1.700) \\[+0.420, +0.580\\]');
    // gc moved by less than its own noise: not among the moves shown.
    expect(md).not.toContain('gc -0.010');
    expect(md).toContain('moved most: 1 beyond its noise');
    expect(md).toContain('`burn`');
    expect(md).toContain('go tool pprof -top -diff_base=compare-c20-baseline.pb.gz compare-c20-candidate.pb.gz');
  });

  it('says the candidate allocates more beyond noise and that the gc bucket grew with it', () => {
    expect(md).toContain(
      "Allocation per successful request: 250.0 → 370.0 kB (+120.0 kB, +48.0%) \\[+100.0, +140.0\\] 95%; GC 0.800 → 1.100 ms/req (Node's account): the candidate allocates more, beyond noise, and the gc bucket grew with it (+0.170 ms/req): part of the CPU change is collecting the extra garbage.",
    );
    expect(md).toContain('By bucket, kB per successful request: execute 50.0 → 170.0 (+120.0, beyond noise); fetch 200.0 → 200.0 (+0.0).');
    expect(md).toMatch(/Functions whose allocation per successful request moved most: 1 beyond its noise \(intervals holding for all 900 allocating functions/);
    expect(md).toMatch(/\| \+120\.0 \| \\\[\+110\.0, \+130\.0\\\] \| yes \| 0\.0 \| 120\.0 \| execute \| `burn` \|/);
    expect(md).toContain(
      'Allocation flame graphs (all windows of a side): [baseline](compare-c20-baseline.alloc.html) · [candidate](compare-c20-candidate.alloc.html)',
    );
  });

  it('summarises the setup and says how to reproduce, untrusted text in code', () => {
    expect(md).toContain('- Machine: Fake CPU &lt;script&gt;alert(1)&lt;/script&gt; × 2');
    expect(md).toMatch(/```sh\npnpm gwprof compare --baseline mesh --candidate '/);
    expect(md).toContain("--candidate-env 'NODE_OPTIONS=--require ./slow.cjs'");
    expect(md.replace(/(`+)[\s\S]*?\1/g, '')).not.toContain('<script');
  });

  it('lists windows that failed validation', () => {
    const compare = makeCompareFixture();
    compare.analysis.verdict = 'invalid';
    const window = compare.windows[3]!;
    window.step = { ...window.step, status: 'failed', failures: ['success rate 90.0% below 100%'] };
    const text = renderCompareMarkdown(compare);
    expect(text.split('\n')[0]).toBe('## gwprof compare: INVALID COMPARISON');
    expect(text).toContain('- epoch 1 block 1 · window 4 baseline c=20: success rate 90.0% below 100%');
  });

  it('says why an invalid comparison failed: the failure kinds with counts, the first difference, and the command that fixes it', () => {
    const compare = makeCompareFixture();
    compare.config.scenarioFile = 'perf/scenario.yaml';
    for (const w of compare.windows.filter((w) => w.side === 'candidate')) {
      w.step = {
        ...w.step,
        status: 'failed',
        failures: ['success rate 0.00% is below the required 100.00%'],
        failureCounts: { ...w.step.failureCounts, mismatch: 363 },
        failureSamples: [{ kind: 'mismatch', message: 'data.topProducts[0].upc: expected "1166", got "2166"', count: 363 }],
      };
    }
    Object.assign(compare.analysis, comparisonOutcome(compare, judgeRecord(compare)));
    const why = 'mismatch ×363; first mismatch: data.topProducts[0].upc: expected "1166", got "2166"';
    const fix = "if the candidate's answers differ on purpose, record its own goldens (gwprof goldens --scenario perf/scenario.yaml --reference";
    const md = renderCompareMarkdown(compare, { fileLinks: false });
    expect(md.split('\n')[0]).toBe('## gwprof compare: INVALID COMPARISON');
    expect(md).toMatch(
      /- candidate window 1\.\d at c=20 failed: success rate 0\.00% is below the required 100\.00% — mismatch ×363; first mismatch: data\.topProducts\\\[0\\\]\.upc/,
    );
    expect(md).toContain(`**To fix:** ${fix}`);
    expect(md).toContain('and give them with --candidate-goldens FILE');
    const terminal = stripAnsi(renderCompareTable(compare));
    expect(terminal).toContain(why);
    expect(terminal).toContain(`To fix: ${fix}`);
    expect(renderCompareReportHtml(compare)).toContain('--candidate-goldens FILE');
  });

  it('warns when a side answered while its counted subgraphs received nothing, and only then', () => {
    expect(renderCompareMarkdown(makeCompareFixture())).not.toContain('received no request');
    const compare = makeCompareFixture();
    for (const w of compare.windows.filter((w) => w.side === 'candidate')) w.step = { ...w.step, fanout: 0 };
    const warning = "The candidate's subgraphs received no request in 12 of its 12 windows while its gateway answered successfully";
    expect(renderCompareMarkdown(compare)).toContain(`Warning: ${warning}`);
    expect(stripAnsi(renderCompareTable(compare))).toContain(warning);
    expect(renderCompareReportHtml(compare)).toContain(warning.replace("'", '&#39;'));
  });

  it('shows deltas only for two finished runs', () => {
    const runs = renderCompareMarkdown(makeCompareFixture('runs'));
    expect(runs.split('\n')[0]).toBe('## gwprof compare: DELTAS ONLY');
    expect(tableRow(runs, 'throughput (ok req/s)')).toEqual(['throughput (ok req/s)', 'req/s', '200', '180', '-10.0%', '–', '3/3']);
    expect(runs).toContain('pnpm gwprof compare --baseline-run /runs/a --candidate-run /runs/b');
  });
});

describe('renderCompareTable', () => {
  it('shows per level the decision, the metrics and what moved, then the verdict', () => {
    const out = renderCompareTable(makeCompareFixture());
    expect(out).toMatch(/c=20\n {2}CPU per ok request \+11\.4%/);
    expect(out).toMatch(/throughput \(ok req\/s\)\s+req\/s\s+200\s+180\s+-10\.0%\s+\[-11\.5%, -8\.5%\] 95%\s+3\/3/);
    expect(out).toContain(
      "CPU buckets that moved beyond their noise (ms per successful request; intervals from the epochs' paired differences, holding for all 14 buckets together at 95%): execute +0.500 ms/req",
    );
    expect(out).toMatch(/Verdict: REGRESSION \(exit 1\)\n {2}- c=20: \+11\.4%/);
  });

  it('paints worse changes red only when colour is on', () => {
    const coloured = renderCompareTable(makeCompareFixture(), { color: true });
    expect(coloured).toContain('\u001b[31m+11.4%');
    expect(stripAnsi(coloured)).toBe(renderCompareTable(makeCompareFixture()));
  });

  it('colours the CPU row by the verdict, and other metrics only where their interval excludes 0', () => {
    const compare = makeCompareFixture();
    const level = compare.analysis.levels[0]!;
    level.decision = { ...level.decision!, outcome: 'no change' };
    level.gating = { ...level.gating, relativeChange: 0.0001 };
    level.metrics = level.metrics.map((m) => (m.metric === 'p99' ? m : { ...m, interval: [-0.02, 0.01] }));
    const coloured = renderCompareTable(compare, { color: true });
    expect(coloured).not.toMatch(/\u001b\[3[12]m\+0\.0%/);
    expect(coloured).not.toMatch(/\u001b\[3[12]m-10\.0%/);
  });

  it('shows nothing as moved when every move is within its noise, and says so', () => {
    const compare = makeCompareFixture();
    const level = compare.analysis.levels[0]!;
    const still = { interval: [-0.1, 0.1] as [number, number], confidence: 0.99, familyConfidence: 0.95, familySize: 14, moved: false };
    level.buckets = level.buckets.map((b) => ({ ...b, noise: still }));
    level.functions = level.functions.map((f) => ({ ...f, noise: still }));
    const out = renderCompareTable(compare);
    expect(out).toContain('No CPU bucket moved beyond its noise');
    expect(out).toContain('moved most: none beyond its noise');
    expect(out).toMatch(/\+0\.500\s+\[-0\.100, \+0\.100\]\s+no\s/);
  });
});

describe('renderCompareReportHtml', () => {
  const html = renderCompareReportHtml(makeCompareFixture());

  it('escapes the gateway specs and environment', () => {
    expect(html).toContain('cmd:node ./pr/gateway.js &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script\b/i);
  });

  it('shows the level, its windows as dots, flame graphs and the differential profile, and loads nothing', () => {
    expect(html).toContain('id="compare-table-c20"');
    expect(html).toContain('id="bucket-deltas-c20"');
    expect(html).toContain('id="function-moves-c20"');
    const dots = html.slice(html.indexOf('id="windows-c20"'), html.indexOf('</svg>', html.indexOf('id="windows-c20"')));
    expect(dots.match(/<circle class="window-value"/g)).toHaveLength(6);
    expect(html.match(/class="flamegraph-link"/g)).toHaveLength(2);
    expect(html).toContain('href="compare-c20-candidate.pb.gz"');
    expect(html.match(/<tr[^>]*data-side=/g)).toHaveLength(24);
    expect(findExternalResourceLoads(html)).toEqual([]);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('renders runs mode as deltas only, with no measurement design to show', () => {
    const html = renderCompareReportHtml(makeCompareFixture('runs'));
    expect(html).toContain('DELTAS ONLY');
    expect(html).not.toMatch(/lead-in|budget|α /);
    const measured = renderCompareReportHtml(makeCompareFixture('windows'));
    expect(measured).toContain('2 windows per side in random order, 5 s each after a 2 s lead-in');
    const atOnce = makeCompareFixture('windows');
    atOnce.config.design = { ...atOnce.config.design!, simultaneous: true };
    expect(renderCompareReportHtml(atOnce)).toContain(
      '2 windows in which both sides are loaded at the same time, each at the level on the shared gateway core, 5 s each',
    );
    expect(measured).toContain('α 0.05 per direction, split across levels, up to 12 epochs), first look after 4 epochs; no change within ±5%; budget 20 min');
  });
});

describe('largestMoves', () => {
  it('ranks buckets by the size of their move, whatever order the record keeps them in', () => {
    const delta = (bucket: string, baseline: number, candidate: number) => ({
      bucket,
      baselineMsPerOkRequest: baseline,
      candidateMsPerOkRequest: candidate,
      deltaMsPerOkRequest: candidate - baseline,
      noise: null,
    });
    const moved = largestMoves([delta('gc', 1.143, 1.121), delta('plan', 1.261, 1.352), delta('httpParser', 0.3, 2.0), delta('idle', 0.1, 0.101)], 2);
    expect(moved.map((b) => b.bucket)).toEqual(['httpParser', 'plan']);
  });
});
