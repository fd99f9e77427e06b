import { describe, expect, it } from 'vitest';
import type { AllocationVerdict, PublishedCompare } from '@gwprof/results';
import { stripAnsi } from '../ansi.js';
import { makeCompareFixture } from '../test-fixtures/compare-fixture.js';
import { renderCompareReportHtml } from './compare-html.js';
import { renderCompareMarkdown } from './compare-markdown.js';
import { renderCompareTable } from './compare-table.js';

/** A comparison whose instructions did not change and whose allocator calls rose by 5%: fixtures/native-work's planted allocations. */
function withAllocations(): PublishedCompare {
  const compare = makeCompareFixture();
  const verdict: AllocationVerdict = {
    kind: 'allocator calls',
    unit: 'allocations/req',
    decision: {
      outcome: 'regression',
      epochs: 3,
      blocks: 3,
      relativeChange: 0.05,
      interval: { low: 0.043, high: 0.057 },
      alpha: 0.05,
      maxEpochs: 39,
      reason: '3 epochs, interval [+4.3%, +5.7%] lies above 0 and reaches beyond ±1.0%: slower',
    },
    metric: {
      metric: 'allocationsPerOkRequest',
      unit: 'allocations/req',
      higherIsBetter: false,
      baseline: { n: 3, median: 20, mean: 20, geometricMean: 20, values: [20, 20, 20] },
      candidate: { n: 3, median: 21, mean: 21, geometricMean: 21, values: [21, 21, 21] },
      relativeChange: 0.05,
      interval: [0.05, 0.05],
      confidence: 0.95,
      method: 'ratio of geometric means from 3 epochs',
    },
    functions: [{ functionName: 'gwprof_planted_allocations', baselinePerOkRequest: 20, candidatePerOkRequest: 21, deltaPerOkRequest: 1 }],
  };
  return { ...compare, analysis: { ...compare.analysis, verdict: 'no change', exitCode: 1, allocationVerdict: verdict } };
}

describe('a comparison with an allocation verdict', () => {
  it('says in the terminal that allocations regressed beside instructions that did not, with the function that allocates more', () => {
    const text = stripAnsi(renderCompareTable(withAllocations()));
    expect(text).toMatch(
      /Allocations per ok request \(allocator calls\): REGRESSION at ±\d+%, \+5\.0% \(20\.00 → 21\.00\) over 3 epochs, 90% interval \[\+4\.3%, \+5\.7%\]/,
    );
    expect(text).toMatch(/\+1\.00\s+20\.00\s+21\.00\s+gwprof_planted_allocations/);
    expect(text).toMatch(/Verdict: NO CHANGE; ALLOCATIONS REGRESSION \(exit 1\)/);
  });

  it('writes it into the PR comment, the function in a table', () => {
    const md = renderCompareMarkdown(withAllocations());
    expect(md.split('\n')[0]).toBe('## gwprof compare: NO CHANGE; ALLOCATIONS REGRESSION');
    expect(md).toMatch(/Allocations per ok request \(allocator calls\): REGRESSION/);
    expect(md).toMatch(/\| \+1\.00 \| 20\.00 \| 21\.00 \| `gwprof_planted_allocations` \|/);
  });

  it('shows it on the page under the verdict', () => {
    const html = renderCompareReportHtml(withAllocations());
    expect(html).toMatch(/<p id="allocation-verdict">Allocations per ok request \(allocator calls\): REGRESSION/);
    expect(html).toMatch(/<td class="mono">gwprof_planted_allocations<\/td>/);
  });
});
