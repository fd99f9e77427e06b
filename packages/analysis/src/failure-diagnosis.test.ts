import type { FailureCounts } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { compareValidationFixes, failureDetail, sweepValidationFixes } from './failure-diagnosis.js';

const NONE: FailureCounts = { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0, protocolErrors: 0 };
const mismatch = {
  failureCounts: { ...NONE, mismatch: 363, timeouts: 2 },
  failureSamples: [{ kind: 'mismatch' as const, message: 'data.topProducts[0].upc: expected "1166", got "2166"', count: 363 }],
};

describe('failureDetail', () => {
  it('names each failure kind with its count and the first sample', () => {
    expect(failureDetail(mismatch)).toBe('mismatch ×363, timeouts ×2; first mismatch: data.topProducts[0].upc: expected "1166", got "2166"');
  });

  it('keeps a long or multi-line message to one short line, and says nothing when nothing is known', () => {
    const long = failureDetail({
      failureCounts: { ...NONE, non2xx: 1 },
      failureSamples: [{ kind: 'non2xx', message: `HTTP 500\n${'x'.repeat(500)}`, count: 1 }],
    });
    expect(long).not.toContain('\n');
    const colored = failureDetail({ failureSamples: [{ kind: 'graphqlErrors', message: '\u001b[31mboom\u001b[0m', count: 1 }] });
    expect(colored).toBe('first graphqlErrors: [31mboom [0m');
    expect(long.length).toBeLessThan(240);
    expect(failureDetail({})).toBe('');
  });
});

describe('validation fixes', () => {
  it('tells a sweep with a scenario file to record its goldens again, and one without to give --expect', () => {
    expect(sweepValidationFixes([mismatch], { scenarioFile: 'perf/scenario.yaml' })).toEqual([
      "if the gateway's answers are right, record the goldens again: gwprof goldens --scenario perf/scenario.yaml",
    ]);
    expect(sweepValidationFixes([mismatch], {})[0]).toContain('--expect FILE');
  });

  it('gives no fix when no answer differed from the goldens (a timeout is not fixed by goldens)', () => {
    expect(sweepValidationFixes([{ failureCounts: { ...NONE, timeouts: 3 } }], { scenarioFile: 's.yaml' })).toEqual([]);
    expect(compareValidationFixes([{ side: 'candidate', failureCounts: { ...NONE, non2xx: 3 } }], { scenarioFile: 's.yaml' })).toEqual([]);
  });

  it('gives the candidate its own goldens when only its answers differ, with the command that records them', () => {
    const fixes = compareValidationFixes([{ side: 'candidate', ...mismatch }], { scenarioFile: 'perf/scenario.yaml', candidate: 'cmd:node dist/server.js' });
    expect(fixes).toEqual([
      "if the candidate's answers differ on purpose, record its own goldens (gwprof goldens --scenario perf/scenario.yaml --reference 'cmd:node dist/server.js' --goldens FILE) and give them with --candidate-goldens FILE",
    ]);
  });

  it("records the goldens again when the baseline's answers differ too, and the candidate's own when it already has them", () => {
    const both = compareValidationFixes(
      [
        { side: 'baseline', ...mismatch },
        { side: 'candidate', ...mismatch },
      ],
      { scenarioFile: 'perf/scenario.yaml', candidate: 'hive' },
    );
    expect(both).toEqual(["if the baseline's answers are right, record the goldens again: gwprof goldens --scenario perf/scenario.yaml"]);
    const own = compareValidationFixes([{ side: 'candidate', ...mismatch }], { scenarioFile: 's.yaml', candidate: 'hive', candidateExpect: 'pr-goldens.json' });
    expect(own).toEqual([
      "if the candidate's answers are right, record its goldens again: gwprof goldens --scenario s.yaml --reference hive --goldens pr-goldens.json",
    ]);
  });
});
