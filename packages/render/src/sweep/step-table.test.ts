import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../ansi.js';
import { renderStepTable } from './step-table.js';
import { renderCapacityLines } from './capacity-facts.js';
import { SCRIPT_TAG, makeRunFixture } from '../test-fixtures/run-fixture.js';

function rowOf(table: string, concurrency: number): string {
  const row = table.split('\n').find((line) => stripAnsi(line).trimStart().startsWith(`${concurrency} `));
  if (!row) throw new Error(`no row for c=${concurrency}`);
  return row;
}

describe('renderStepTable', () => {
  const run = makeRunFixture();

  it('shows each step with its status, the failed one as FAILED', () => {
    const table = renderStepTable(run);
    // conc, status, ok/total, success %, rps, p50, p99, window s, failures (p90, max and in flight are summary.md's)
    expect(rowOf(table, 10)).toMatch(/^\s*10\s+ok\s+1,905\/1,905\s+100\.0\s+190\.5\s+6\.2\s+12\.4\s+10\s+–/);
    const failed = rowOf(table, 1000);
    expect(failed).toContain('FAILED');
    expect(failed).toMatch(/0\/1,000\s+0\.0\s+0\.0\s+–\s+–\s+10\s+non2xx 1,000/);
    expect(table).not.toMatch(/\bok\b.*non2xx/);
  });

  it("says whether a scenario file's subgraphs were counted, and through what", () => {
    const uncounted = makeRunFixture();
    uncounted.config.ownSubgraphs = ['catalog', 'reviews'];
    uncounted.config.proxiedSubgraphs = ['catalog'];
    expect(stripAnsi(renderStepTable(uncounted))).toMatch(/fan-out –: the scenario file's subgraphs \(reviews\) are not gwprof's code and are not proxied/);
    const proxied = makeRunFixture();
    proxied.config.ownSubgraphs = ['catalog'];
    proxied.config.proxiedSubgraphs = ['catalog'];
    const table = stripAnsi(renderStepTable(proxied));
    expect(table).toMatch(/fan-out counted by gwprof's counting proxy in front of catalog: each subgraph call took one more loopback hop/);
    expect(table).not.toMatch(/fan-out –/);
  });

  it('lists why failed steps failed, one line each, control characters removed', () => {
    const withNewline = makeRunFixture();
    withNewline.steps[2]!.failures.push('line one\nline two\u001b[2J');
    const table = renderStepTable(withNewline);
    expect(table).toContain('FAILED c=1000: success rate 0.0% below 100%');
    expect(table).toContain(`FAILED c=1000: gateway said ${SCRIPT_TAG}`);
    expect(table).toContain('FAILED c=1000: line one line two [2J');
    expect(table).not.toContain('\u001b');
  });

  it('shows CPU, RSS and fan-out within 120 columns, and says where the rest is', () => {
    const table = renderStepTable(run);
    expect(rowOf(table, 100)).toMatch(/–\s+97\s+313\s+7\.00$/);
    expect(
      Math.max(
        ...table
          .split('\n')
          .filter((l) => /^\s*(conc|\d+|-+)\s/.test(l))
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(120);
    expect(table).toContain(
      '(p90 ms, max ms, in flight, order warn, ok req per gw CPU-s, gw threads, subgraphs CPU %, loadgen CPU %, harness cores busy %: summary.md)',
    );
  });

  it('paints failed rows red only when color is on, with columns still aligned', () => {
    const plain = renderStepTable(run);
    const colored = renderStepTable(run, { color: true });
    expect(plain).not.toContain('\u001b[');
    expect(rowOf(colored, 1000)).toContain('\u001b[31m');
    expect(rowOf(colored, 10)).not.toContain('\u001b[31m');
    expect(stripAnsi(colored)).toBe(plain);
  });

  it('says when the run did not complete', () => {
    const interrupted = { ...makeRunFixture(), state: 'interrupted' as const };
    expect(renderStepTable(interrupted)).toMatch(/Run interrupted$/);
  });

  it('warns of a step whose successful answers reached none of the counted subgraphs, and of no other', () => {
    expect(renderStepTable(run)).not.toContain('received no request');
    const cached = makeRunFixture();
    cached.steps[0]!.fanout = 0;
    expect(renderStepTable(cached)).toContain('warning c=10: the subgraphs gwprof counts received no request while the gateway answered 1,905 successfully');
  });

  it('never shows 100.0% success for a step with a failed request', () => {
    const almost = makeRunFixture();
    const step = almost.steps[0]!;
    step.requests = { total: 100_000, ok: 99_999, failed: 1, inFlightAtEnd: 10 };
    step.failureCounts.timeouts = 1;
    expect(rowOf(renderStepTable(almost), 10)).toMatch(/99,999\/100,000\s+>99\.9/);
    expect(rowOf(renderStepTable(almost), 10)).toContain('timeouts 1');
  });
});

describe('renderCapacityLines', () => {
  it('prints the notes that explain a figure it could not determine', () => {
    const lines = renderCapacityLines(makeRunFixture()).split('\n');
    expect(lines).toContain('Maximum concurrency: not determined (see notes)');
    expect(lines.slice(-2)).toEqual(['Notes:', '  - maximum concurrency: no level met the success target']);
  });
});
