import { describe, expect, it } from 'vitest';
import { analyzeBisection } from '@gwprof/analysis';
import type { InstructionMoves, PublishedBisect } from '@gwprof/results';
import { bisectRecord } from '../../../analysis/src/testing/bisect-record.js';
import { findExternalResourceLoads } from '../test-fixtures/external-resources.js';
import { renderBisectHtml } from './bisect-html.js';
import { renderBisectMarkdown } from './bisect-markdown.js';
import { renderBisectTable } from './bisect-table.js';

const M = 1e6;

const moves: InstructionMoves = {
  separateCallers: 160,
  native: true,
  totalPerOkRequest: { baseline: 1.0 * M, candidate: 1.03 * M },
  truncatedShare: { baseline: 0, candidate: 0 },
  unnamedJitShare: { baseline: 0, candidate: 0 },
  buckets: [{ bucket: 'own code', baselinePerOkRequest: 0.3 * M, candidatePerOkRequest: 0.33 * M, deltaPerOkRequest: 0.03 * M }],
  functions: [
    {
      functionName: 'router::plan::execute',
      url: 'hive_router',
      bucket: 'own code',
      baselinePerOkRequest: 0.1 * M,
      candidatePerOkRequest: 0.13 * M,
      deltaPerOkRequest: 0.03 * M,
    } as InstructionMoves['functions'][number],
  ],
};

function published(): PublishedBisect {
  // The ends three times each (0.05% apart), as the plan counts them before it splits.
  const record = bisectRecord([
    [0.9995 * M, M, 1.0005 * M],
    null,
    M,
    { stage: 'build', reason: 'error[E0425]' },
    1.03 * M,
    [1.03 * 0.9995 * M, 1.03 * M, 1.03 * 1.0005 * M],
  ]);
  record.confirmations = [
    { good: 2, bad: 4, runDir: 'confirm-2-4', verdict: 'regression', relativeChange: 0.0301, interval: { low: 0.025, high: 0.035 }, exitCode: 1, moves },
  ];
  return { ...record, analysis: analyzeBisection(record) };
}

describe('a bisection rendered', () => {
  it('prints the verdict, the counted and skipped points, and the step with its confirmation and reproduce line', () => {
    const text = renderBisectTable(published());
    expect(text).toMatch(/^BISECT: 1 REGRESSION STEP ABOVE 1\.0%/);
    expect(text).toMatch(/0\.1\.3 .*skipped \(build\): error\[E0425\]/);
    expect(text).toMatch(/0\.1\.2 → 0\.1\.4: \+3\.00% \[\+2\.\d\d%, \+3\.\d\d%\] instructions\/req \(somewhere in 1 skipped point\(s\) between\)/);
    expect(text).toMatch(
      /Scatter of one point between processes: 0\.05% \(pooled sd of log counts over 2 point\(s\) counted more than once, 4 df\), below the floor of 0\.10%: the floor used\. With up to 3 counts a point it resolves a change of 0\.\d\d%; the 1\.00% threshold takes about 1 count\(s\) a point/,
    );
    expect(text).toMatch(/Confirmed by a full comparison by instructions: regression, \+3\.01% \[\+2\.50%, \+3\.50%\]/);
    expect(text).toMatch(/reproduce: gwprof compare --measure instructions --baseline hive-router@0\.1\.2 --candidate hive-router@0\.1\.4/);
    expect(text).not.toMatch(/0\.1\.1 /);
  });

  it('writes markdown with the functions behind the step and what a count cannot see', () => {
    const md = renderBisectMarkdown(published());
    expect(md).toMatch(/^## gwprof bisect: 1 regression step above 1\.0%/);
    expect(md).toMatch(/`router::plan::execute`/);
    expect(md).toMatch(/```sh\ngwprof compare --measure instructions/);
    expect(md).toMatch(/cannot see time spent waiting/);
    expect(md).toMatch(/### Noise\n\nScatter of one point between processes: 0\.05%/);
  });

  it('lists a step its full comparison did not confirm, and a range the noise left unresolved, as not named', () => {
    const around = (x: number) => [x, 1.004 * x, 0.996 * x];
    const record = bisectRecord([around(M), around(1.05 * M), around(1.058 * M)]);
    record.confirmations = [
      { good: 0, bad: 1, runDir: 'confirm-0-1', verdict: 'no change', relativeChange: -0.0028, interval: null, exitCode: 0, moves: null },
    ];
    const bisect: PublishedBisect = { ...record, analysis: analyzeBisection(record) };
    const text = renderBisectTable(bisect);
    expect(text).not.toMatch(/Steps:/);
    expect(text).toMatch(
      /Not named as steps:\n {2}found by the counts, not confirmed \(the full comparison: no change, -0\.28%\): 0\.1\.0 → 0\.1\.1: \+5\.00% \[/,
    );
    expect(text).toMatch(/ {2}unresolved by the noise: 0\.1\.1 → 0\.1\.2: \+0\.76% \[-\d\.\d\d%, \+\d\.\d\d%\]/);
    expect(renderBisectHtml(bisect)).toMatch(/<h2>Not named as steps<\/h2><ul><li>found by the counts, not confirmed/);
  });

  it('draws the curve of the counted points with the step marked, in a page that loads nothing', () => {
    const html = renderBisectHtml(published());
    expect(html).toMatch(/<svg id="bisect-curve"/);
    expect(html).toMatch(/<g class="marker">/);
    // Four points counted (0, 2, 4, 5): four dots.
    expect(html.match(/<circle /g)).toHaveLength(4);
    expect(findExternalResourceLoads(html)).toEqual([]);
  });

  it('shows a memory bisection in allocations per request, with its largest step, its allocation confirmation and the callers that moved', () => {
    const record = bisectRecord([[783_000, 783_000, 783_000], 783_000, [783_000, 783_000, 783_000]]);
    record.config.measure = 'memory';
    const allocations = [866, 866, 892];
    for (const p of record.points) for (const c of p.counts) c.allocationCalls = allocations[p.index]! * c.ok;
    record.confirmations = [
      {
        good: 1,
        bad: 2,
        runDir: 'confirm-1-2',
        verdict: 'no change',
        relativeChange: 0.001,
        interval: null,
        exitCode: 1,
        moves: null,
        allocations: {
          verdict: 'regression',
          relativeChange: 0.03,
          interval: { low: 0.029, high: 0.031 },
          functions: [{ functionName: 'engine::plan', baselinePerOkRequest: 10, candidatePerOkRequest: 36, deltaPerOkRequest: 26 }],
        },
      },
    ];
    const bisect: PublishedBisect = { ...record, analysis: analyzeBisection(record) };
    const text = renderBisectTable(bisect);
    expect(text).toMatch(/#\s+point\s+allocations\/req/);
    expect(text).toMatch(/0\.1\.2\s+892\.0\s+\+3\.00%/);
    expect(text).toMatch(/Confirmed by a full comparison's allocation verdict: regression, \+3\.00% \[\+2\.90%, \+3\.10%\] \(instructions: no change/);
    expect(text).toMatch(/Allocator calls per request moved most in: engine::plan \+26\.00\./);
    expect(text).toMatch(/Largest step: 0\.1\.1 → 0\.1\.2: \+3\.00% \[.*\] allocations\/req \(regression\)\./);
    expect(renderBisectMarkdown(bisect)).toMatch(
      /Allocations per validated request \(calls into the gateway's allocator that obtain memory\), counted under callgrind/,
    );
  });
});
