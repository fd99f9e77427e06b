/**
 * End to end with a real k6 (built from its Go module by scripts/ensure-k6.mjs when missing):
 * `sweep --engine k6` measures a step with k6 sending the load; an exported script validates as
 * gwprof does, so a wrong answer counts as a failure and nothing as ok; two execution segments
 * split one rate between two k6 processes and `gwprof import k6` merges them without counting a
 * request twice.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { portIsFree, repoRoot, runCli, stubScenario, sweepStub, tempDir } from './cli.js';

const BASE_PORT = 4630;
const STUB_PORT = BASE_PORT + 9;
const stubUrl = `http://127.0.0.1:${STUB_PORT}/graphql`;
let k6 = '';
let stub: ChildProcess | null = null;

function k6Run(script: string, out: string, extra: string[] = []): Promise<number | null> {
  const child = spawn(k6, ['run', '--quiet', '--no-usage-report', '--out', `json=${out}`, ...extra, script], {
    env: { ...process.env, GWPROF_URL: stubUrl },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function exportScript(extra: string[]): Promise<string> {
  const dir = tempDir('k6-export');
  const result = await runCli(['export', 'k6', ...stubScenario, '--url', stubUrl, '-o', dir, ...extra]);
  expect(result.code, result.stderr).toBe(0);
  return path.join(dir, 'gwprof-k6.js');
}

async function importRun(files: string[], extra: string[] = []): Promise<{ code: number | null; run: RunResult; dir: string }> {
  const out = tempDir('k6-import');
  const result = await runCli(['import', 'k6', ...files, '--out', out, '--run-id', 'i', '--no-color', ...extra]);
  const dir = path.join(out, 'i');
  return { code: result.code, run: JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResult, dir };
}

beforeAll(async () => {
  k6 = execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'ensure-k6.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  stub = spawn(process.execPath, [path.join(repoRoot, 'fixtures', 'stub-gateway.mjs')], {
    env: { ...process.env, PORT: String(STUB_PORT), STUB_SERVICE_MS: '1' },
    stdio: 'ignore',
  });
  while (await portIsFree(STUB_PORT)) await new Promise((r) => setTimeout(r, 100));
}, 900_000);

afterAll(() => {
  stub?.kill('SIGTERM');
});

describe('k6 as gwprof load engine and peer', () => {
  it('measures a sweep step with k6 sending the load, services and analysis unchanged', async () => {
    const { code, run } = await sweepStub(BASE_PORT, ['STUB_SERVICE_MS=5'], ['--engine', 'k6', '--k6', k6, '-c', '2', '-d', '4', '-w', '2']);
    const step = run.steps[0]!;
    expect(code).toBe(0);
    expect(run.config.engine).toBe('k6');
    expect(step.requests.failed).toBe(0);
    expect(step.requests.ok).toBeGreaterThan(20);
    // Every response waits out the stub's 5 ms service time: k6's latency is the gateway's.
    expect(step.latencyMs!.p50).toBeGreaterThanOrEqual(5);
    // The gateway's CPU is measured as in any step, and k6's own as the load generator's.
    expect(step.gateway.cpuPercent).toBeGreaterThan(0);
    expect(step.loadgen.cpuPercent).toBeGreaterThan(0);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 180_000);

  it('counts a response that is not the golden as a failure, never as ok', async () => {
    const wrong = path.join(tempDir('k6-golden'), 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ data: { ok: false } }));
    const script = await exportScript(['--expect', wrong, '-c', '2', '-d', '3s']);
    const samples = path.join(path.dirname(script), 'samples.json');
    expect(await k6Run(script, samples)).toBe(0);
    const { code, run } = await importRun([samples], ['--skip', '0']);
    const step = run.steps[0]!;
    expect(step.requests.ok).toBe(0);
    expect(step.failureCounts.mismatch).toBeGreaterThan(20);
    expect(step.failureCounts.mismatch).toBe(step.requests.failed);
    expect(step.status).toBe('failed');
    expect(code).toBe(1);
    expect(run.analysis!.exitCode).toBe(code);
  }, 120_000);

  it('splits one rate over two execution segments, and the import merges them into that rate', async () => {
    const script = await exportScript(['-r', '80', '-d', '8s']);
    const dir = path.dirname(script);
    const halves = ['0:1/2', '1/2:1'].map((segment, i) =>
      k6Run(script, path.join(dir, `half-${i}.json`), ['--execution-segment', segment, '--execution-segment-sequence', '0,1/2,1']),
    );
    expect(await Promise.all(halves)).toEqual([0, 0]);
    const single = await importRun([path.join(dir, 'half-0.json')], ['--skip', '2']);
    const merged = await importRun([path.join(dir, 'half-0.json'), path.join(dir, 'half-1.json')], ['--skip', '2']);
    const mergedStep = merged.run.steps[0]!;
    expect(merged.code).toBe(0);
    expect(mergedStep.load).toEqual({ kind: 'open', targetRps: 80, arrivals: 'uniform', maxInFlight: expect.any(Number) });
    expect(mergedStep.requests.failed).toBe(0);
    // Each half sends 40/s; together 80/s: a half counted twice would make the merge four times one
    // half, a half lost one time. What either served is the machine's; the merge is twice a half
    // (each half's count scatters by a few requests), and never more than the rate the script sends.
    const singleRps = single.run.steps[0]!.rps;
    expect(mergedStep.rps / singleRps).toBeGreaterThan(1.5);
    expect(mergedStep.rps / singleRps).toBeLessThan(2.5);
    expect(mergedStep.rps).toBeLessThan(80 * 1.1);
    expect(mergedStep.rate!.dropped).toBe(0);
    // The imported folder is a run folder like any: `gwprof report` renders it again, byte for byte.
    const summary = readFileSync(path.join(merged.dir, 'summary.md'), 'utf8');
    const report = await runCli(['report', merged.dir, '--no-color']);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(path.join(merged.dir, 'summary.md'), 'utf8')).toBe(summary);
  }, 120_000);
});
