/**
 * End to end: a scenario file of one's own (a subgraph gwprof starts, a `cmd:` gateway, two
 * operations): goldens recorded once from the gateway, a sweep validated against them, fan-out
 * marked as not countable (or counted through gwprof's proxy, when asked), a wrong answer caught,
 * and an edited operation refused. Two gateways compared on its subgraphs, and a PR that changes
 * answers on purpose, are scenario-file.long.test.ts's (`pnpm test:long`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { runCli, tempDir } from './cli.js';
import { copyScenario, GATEWAY_PORT, listening } from './own-scenario.js';

const SHORT = ['-c', '2', '-d', '1', '-w', '0', '--no-profile'];

describe('a scenario file of your own', () => {
  it('records goldens from its gateway, sweeps against them, and says fan-out cannot be counted', async () => {
    const scenario = copyScenario();
    const out = tempDir('own-scenario-runs');
    // From gwprof's root: the file's commands and paths must still be taken from the file's folder.
    const recorded = await runCli(['goldens', '--scenario', scenario, '--out', out, ...GATEWAY_PORT]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const goldens = JSON.parse(readFileSync(path.join(path.dirname(scenario), 'goldens.json'), 'utf8'));
    expect(goldens.recordedFrom).toBe('cmd:node gateway.mjs');
    expect(goldens.responses.map((r: { operationName: string }) => r.operationName)).toEqual(['Product', 'Products', 'Product', 'Products', 'Product']);
    expect(goldens.responses[0].data).toEqual({ product: { id: '1', name: 'Product 1', price: 100 } });

    const swept = await runCli(['sweep', '--scenario', scenario, ...SHORT, '--out', out, '--run-id', 'own', ...GATEWAY_PORT]);
    expect(swept.code, swept.stderr).toBe(0);
    const run = JSON.parse(readFileSync(path.join(out, 'own', 'results.json'), 'utf8')) as RunResult;
    expect(run.config.gateway).toBe('cmd:node gateway.mjs');
    expect(run.config.scenario).toBe('catalog');
    expect(run.config.scenarioFile).toBe(scenario);
    expect(run.config.ownSubgraphs).toEqual(['catalog']);
    const step = run.steps[0]!;
    expect(step.requests.ok).toBeGreaterThan(50);
    expect(step.requests.failed).toBe(0);
    expect(step.fanout).toBeNull();
    expect(swept.stdout).toMatch(/fan-out –: the scenario file's subgraphs \(catalog\) .* cannot count/);
  }, 120_000);

  it('counts fan-out through its proxy when the file asks, and stops the proxy with the run', async () => {
    const scenario = copyScenario();
    writeFileSync(
      scenario,
      readFileSync(scenario, 'utf8').replace('command: node catalog-subgraph.mjs', 'command: node catalog-subgraph.mjs\n    proxy: true'),
    );
    const out = tempDir('own-scenario-proxied');
    expect((await runCli(['goldens', '--scenario', scenario, '--out', out, ...GATEWAY_PORT])).code).toBe(0);
    const swept = await runCli(['sweep', '--scenario', scenario, ...SHORT, '--out', out, '--run-id', 'proxied', ...GATEWAY_PORT]);
    expect(swept.code, swept.stderr).toBe(0);
    const run = JSON.parse(readFileSync(path.join(out, 'proxied', 'results.json'), 'utf8')) as RunResult;
    expect(run.config.proxiedSubgraphs).toEqual(['catalog']);
    // The stand-in gateway calls its subgraph exactly once per request: fan-out 1, up to the requests in flight at the window's edges.
    const step = run.steps[0]!;
    expect(step.requests.failed).toBe(0);
    expect(Math.abs(step.fanout! - 1)).toBeLessThan(0.05);
    expect(swept.stdout).toMatch(/fan-out counted by gwprof's counting proxy in front of catalog/);
    expect(await listening(4781)).toBe(false);
  }, 120_000);

  it('fails the step when the gateway answers other data than the goldens, and refuses goldens of another operation', async () => {
    const scenario = copyScenario();
    const out = tempDir('own-scenario-wrong');
    expect((await runCli(['goldens', '--scenario', scenario, '--out', out, ...GATEWAY_PORT])).code).toBe(0);

    // Three requests in five ask for a price, and every price is one off: most responses fail.
    const wrong = await runCli([
      'sweep',
      '--scenario',
      scenario,
      '--gateway-env',
      'OFF_BY_ONE_PRICE=1',
      ...SHORT,
      '--out',
      out,
      '--run-id',
      'wrong',
      ...GATEWAY_PORT,
    ]);
    expect(wrong.code).toBe(1);
    const step = (JSON.parse(readFileSync(path.join(out, 'wrong', 'results.json'), 'utf8')) as RunResult).steps[0]!;
    expect(step.status).toBe('failed');
    expect(step.failureCounts.mismatch).toBeGreaterThan(step.requests.ok);
    expect(step.failureSamples[0]!.message).toMatch(/data\.product\.price: expected \d+/);

    writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('{ first: 5 }', '{ first: 6 }'));
    const edited = await runCli(['sweep', '--scenario', scenario, ...SHORT, '--out', out, ...GATEWAY_PORT]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/has no response for operation Products with variables \{"first":6\}: record them again/);
  }, 120_000);

  it('refuses a scenario with no goldens in one line, unless --expect-none says so, and the record says which', async () => {
    const scenario = copyScenario();
    writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('goldens: goldens.json\n', ''));
    const out = tempDir('own-scenario-none');
    const refused = await runCli(['sweep', '--scenario', scenario, ...SHORT, '--out', out, ...GATEWAY_PORT]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/operation Product of .*scenario\.yaml has no golden response: record them with gwprof goldens .* or pass --expect-none/);
    const unchecked = await runCli(['sweep', '--scenario', scenario, '--expect-none', ...SHORT, '--out', out, '--run-id', 'none', ...GATEWAY_PORT]);
    expect(unchecked.code, unchecked.stderr).toBe(0);
    const run = JSON.parse(readFileSync(path.join(out, 'none', 'results.json'), 'utf8')) as RunResult;
    expect(run.config.expectNone).toBe(true);
    expect(run.config.expect).toBeNull();
  }, 120_000);

  it('exports its requests and goldens to k6, and refuses --query beside it', async () => {
    const scenario = copyScenario();
    expect((await runCli(['goldens', '--scenario', scenario, '--out', tempDir('own-scenario-k6-runs'), ...GATEWAY_PORT])).code).toBe(0);
    const dir = tempDir('own-scenario-k6');
    const exported = await runCli(['export', 'k6', '--scenario', scenario, '-o', dir]);
    expect(exported.code, exported.stderr).toBe(0);
    const data = JSON.parse(readFileSync(path.join(dir, 'gwprof-k6-data.json'), 'utf8')) as { requests: { body: string; expected: unknown }[] };
    expect(data.requests.map((r) => JSON.parse(r.body).operationName)).toEqual(['Product', 'Products', 'Product', 'Products', 'Product']);
    expect(data.requests[1]!.expected).toEqual({
      products: [
        { id: '1', name: 'Product 1' },
        { id: '2', name: 'Product 2' },
      ],
    });
    expect(readFileSync(path.join(dir, 'gwprof-k6.js'), 'utf8')).toMatch(/catalog \(scenario\.yaml, 5 distinct requests\)/);
    const mixed = await runCli(['export', 'k6', '--scenario', scenario, '--query', 'x.graphql', '-o', dir]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--query does not combine with a scenario file/);
  }, 60_000);

  it('refuses a built-in gateway in front of its own subgraphs, in one line', async () => {
    const result = await runCli(['sweep', '--scenario', copyScenario(), '--gateway', 'mesh', ...SHORT, ...GATEWAY_PORT]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^gwprof: gateway mesh serves gwprof's demo subgraphs, not the subgraphs of .*scenario\.yaml/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
