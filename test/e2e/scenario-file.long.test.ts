/**
 * End to end, the long tier (`pnpm test:long`): a scenario file of one's own: two gateways compared
 * on its subgraphs, each side's fan-out counted through proxies of its own, and a PR that changes
 * the answers on purpose, compared with each side checked against its own goldens.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompareResult, PublishedCompare } from '@gwprof/results';
import { runCli, tempDir } from './cli.js';
import { COMPARE_PORTS, copyScenario, FAST_COMPARE, GATEWAY_PORT, listening, proxiedCopy } from './own-scenario.js';

describe('a scenario file of your own', () => {
  it("compares a PR that changes answers on purpose, each side checked against its own goldens; without the PR's goldens, invalid", async () => {
    const scenario = copyScenario();
    const dir = path.dirname(scenario);
    const out = tempDir('own-scenario-pr');
    // main's goldens from main's gateway (the file's), the PR's from the PR's gateway: its prices are one higher on purpose.
    expect((await runCli(['goldens', '--scenario', scenario, '--out', out, ...GATEWAY_PORT])).code).toBe(0);
    const gateway = `cmd:node ${path.join(dir, 'gateway.mjs')}`;
    const prGoldens = path.join(dir, 'pr-goldens.json');
    const recorded = await runCli([
      'goldens',
      '--scenario',
      scenario,
      '--reference',
      gateway,
      '--gateway-env',
      'OFF_BY_ONE_PRICE=1',
      '--goldens',
      prGoldens,
      '--out',
      out,
      ...GATEWAY_PORT,
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const compareArgs = (runId: string, ...extra: string[]) => [
      'compare',
      '--scenario',
      scenario,
      '--baseline',
      gateway,
      '--candidate',
      gateway,
      '--candidate-env',
      'OFF_BY_ONE_PRICE=1',
      ...extra,
      '-c',
      '2',
      ...FAST_COMPARE,
      '--no-profile',
      '--out',
      out,
      '--run-id',
      runId,
      ...GATEWAY_PORT,
      ...COMPARE_PORTS,
    ];
    const own = await runCli(compareArgs('own', '--candidate-goldens', prGoldens));
    const compare = JSON.parse(readFileSync(path.join(out, 'own', 'compare.json'), 'utf8')) as PublishedCompare;
    expect(compare.config.candidateExpect).toBe(prGoldens);
    for (const window of compare.windows) expect(window.step.requests.failed, `${window.side} window ${window.block}`).toBe(0);
    // The same work on both sides: no change, or inconclusive on a noisy machine; never invalid.
    expect(['no change', 'inconclusive'], own.stderr).toContain(compare.analysis.verdict);
    expect(readFileSync(path.join(out, 'own', 'comment.md'), 'utf8')).toMatch(
      /checked against its own goldens: the baseline's .*goldens\.json, the candidate's .*pr-goldens\.json/,
    );

    const shared = await runCli(compareArgs('shared'));
    expect(shared.code).toBe(4);
    const invalid = JSON.parse(readFileSync(path.join(out, 'shared', 'compare.json'), 'utf8')) as PublishedCompare;
    expect(invalid.analysis.verdict).toBe('invalid');
    expect(invalid.analysis.verdictReasons[0]).toMatch(/candidate window .* failed/);
  }, 300_000);

  it("compares two gateways on its subgraphs, both loaded at once, each side's fan-out counted through proxies of its own", async () => {
    const scenario = proxiedCopy();
    const dir = path.dirname(scenario);
    const out = tempDir('own-scenario-compare');
    expect((await runCli(['goldens', '--scenario', scenario, '--out', out, ...GATEWAY_PORT])).code).toBe(0);
    const gateway = `cmd:node ${path.join(dir, 'gateway.mjs')}`;
    const result = await runCli([
      'compare',
      '--scenario',
      scenario,
      '--baseline',
      gateway,
      '--candidate',
      gateway,
      '-c',
      '2',
      ...FAST_COMPARE,
      '--simultaneous',
      '--no-profile',
      '--out',
      out,
      '--run-id',
      'cmp',
      ...GATEWAY_PORT,
      ...COMPARE_PORTS,
    ]);
    expect([0, 3], result.stderr).toContain(result.code);
    const compare = JSON.parse(readFileSync(path.join(out, 'cmp', 'compare.json'), 'utf8')) as CompareResult;
    expect(compare.config.proxiedSubgraphs).toEqual(['catalog']);
    expect(compare.windows.length).toBeGreaterThanOrEqual(6);
    // One subgraph call per request on each side: shared counts would read 2 on both.
    for (const window of compare.windows) {
      expect(window.step.status).not.toBe('failed');
      expect(Math.abs(window.step.fanout! - 1)).toBeLessThan(0.1);
    }
    expect(await listening(4781)).toBe(false);
  }, 300_000);
});
