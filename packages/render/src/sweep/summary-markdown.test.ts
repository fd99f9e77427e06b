import { describe, expect, it } from 'vitest';
import { renderReportHtml } from './report-html.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import { IMG_TAG, SCRIPT_TAG, makeRunFixture, withOutcome } from '../test-fixtures/run-fixture.js';

/** Markdown outside code spans and fenced blocks: where raw HTML would be rendered by GitHub. */
function outsideCode(md: string): string {
  return md.replace(/(`+)[^`]*?\1/g, '');
}

describe('renderSummaryMarkdown', () => {
  const run = makeRunFixture();
  const md = renderSummaryMarkdown(run);

  it('has a title with the run id and a verdict line naming the failed steps and reasons', () => {
    expect(md.split('\n')[0]).toBe('# gwprof run `2025-01-01T00-00-00-mesh`');
    expect(md).toContain('**Verdict: 1 STEP FAILED**');
    expect(md).toContain('- c=1000 **FAILED**: success rate 0.0% below 100%');
  });

  it('says ALL STEPS OK when nothing failed', () => {
    const ok = makeRunFixture();
    ok.steps = ok.steps.slice(0, 2);
    expect(renderSummaryMarkdown(withOutcome(ok))).toContain('**Verdict: ALL STEPS OK**');
  });

  it('marks the failed step FAILED in the step table', () => {
    const row = md.split('\n').find((l) => l.startsWith('| 1000 |'));
    expect(row).toContain('| **FAILED** |');
    expect(row).toContain('non2xx 1,000');
    expect(md.split('\n').find((l) => l.startsWith('| 10 |'))).toContain('| ok |');
  });

  it('never lets untrusted text render as HTML', () => {
    const rendered = outsideCode(md);
    expect(rendered).not.toContain('<script');
    expect(rendered).not.toContain('<img');
    expect(md).toContain('gateway said &lt;script&gt;alert(1)&lt;/script&gt;');
    // Failure samples are shown verbatim, but only inside code spans.
    expect(md).toContain(`\`HTTP 500 ${SCRIPT_TAG}\``);
    expect(md).toContain(`\`HTTP 502 ${IMG_TAG}\``);
  });

  it('has the bucket table, top functions, capacity with notes, and flame graph links', () => {
    expect(md).toContain('## CPU buckets');
    expect(md).toMatch(/\| 10 \| 9,876 \| 10\.0 \| 30\.0 \| 5\.0 \| 12\.3 \|/);
    expect(md).toContain('### c=10');
    expect(md).toContain('`parseDocument`');
    expect(md).toContain('- Knee of the throughput curve: c=100 at 220.3 rps (max curvature)');
    expect(md).toContain('- Maximum concurrency: not determined (see notes)');
    expect(md).toMatch(/USL fit: σ=0\.05 κ=1\.00e-4 λ=20 rps; r²=0\.970 \(good, 2 points\)/);
    expect(md).toContain('**loadgen-saturated**');
    expect(md).toContain('- maximum concurrency: no level met the success target');
    expect(md).toContain('[flame graph](step-10.flame.html)');
    expect(md).toContain('[.cpuprofile](step-1000.cpuprofile)');
  });

  it('does not link artifact paths that are not plain relative paths', () => {
    expect(md).toContain('[gateway log](logs/gateway.log)');
    expect(md).not.toContain('javascript:');
  });

  it('shows what each request allocated beside GC, the top allocators and the allocation flame graphs', () => {
    expect(md).toContain('## What each request allocated (kB per successful request, beside GC)');
    // Only the buckets that allocated; 250 kB and 0.8 GC ms per request make 3.2 GC ms per MB.
    expect(md).toContain('| conc | kB/req | GC ms/req | GC ms/MB | parse | execute | fetch |');
    expect(md).toContain('| 10 | 250.0 | 0.80 | 3.20 | 40.0 | 160.0 | 50.0 |');
    expect(md.split('\n').find((l) => l.startsWith('| 1000 |') && l.includes('not sampled'))).toBeDefined();
    expect(md).toContain('### c=10: top allocators');
    expect(md).toContain('`100.0 kB/req (40%)  buildCacheKey  /app/src/cache.js:12  [execute]`');
    expect(md).toContain('[allocation flame graph](step-10.alloc.html) · [.heapprofile](step-10.heapprofile)');
  });

  it('has the configuration and environment tables', () => {
    expect(md).toContain('## Environment');
    expect(md).toContain('| Node | v20.20.2 |');
    expect(md).toContain('| Gateway memory limit | 512 MB (cgroup v2) |');
    expect(md).toContain('| Minimum success | 100% |');
  });

  it('says so when capacity could not be analysed', () => {
    const none = makeRunFixture();
    none.analysis = null;
    expect(renderSummaryMarkdown(none)).toContain('No capacity analysis in this run.');
  });

  it('says why a failed step failed: the failure kinds with counts, the first sample, and the command that fixes a mismatch', () => {
    const failedRun = makeRunFixture();
    failedRun.config.scenarioFile = 'perf/scenario.yaml';
    const step = failedRun.steps.find((s) => s.status === 'failed')!;
    step.failureCounts = { ...step.failureCounts, non2xx: 0, mismatch: 1000 };
    step.failureSamples = [{ kind: 'mismatch', message: 'data.topProducts[0].upc: expected "1166", got "2166"', count: 1000 }];
    const text = renderSummaryMarkdown(withOutcome(failedRun));
    expect(text).toContain('  - mismatch ×1000; first mismatch: data.topProducts\\[0\\].upc: expected "1166", got "2166"');
    expect(text).toContain("**To fix:** if the gateway's answers are right, record the goldens again: gwprof goldens --scenario perf/scenario.yaml");
    expect(failedRun.analysis?.exitReasons[0]).toContain('c=1000: success rate 0.0% below 100%');
    expect(failedRun.analysis?.exitReasons[0]).toContain('— mismatch ×1000; first mismatch: data.topProducts[0].upc');
    const html = renderReportHtml(failedRun);
    expect(html).toContain('— mismatch ×1000; first mismatch: data.topProducts[0].upc: expected &quot;1166&quot;');
    expect(html).toContain('<b>To fix:</b> if the gateway&#39;s answers are right, record the goldens again: gwprof goldens --scenario perf/scenario.yaml');
  });
});
