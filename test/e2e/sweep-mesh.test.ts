/**
 * End to end: the real subgraphs and the real legacy Mesh gateway, a short sweep at two
 * levels with every response validated against the golden response, profiled per step.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLevel, type RunResult } from '@gwprof/results';
import { portArgs, portIsFree, runCli, tempDir, type CliResult } from './cli.js';

const BASE_PORT = 4510;
let result: CliResult;
let run: RunResult;
let runDir: string;

/** The step table printed by sweep (and report): one record per row, keyed by the column headers. */
function stepTable(stdout: string): Array<Record<string, string>> {
  const lines = stdout.split('\n');
  const header = lines.findIndex((line) => /^\s*conc\s+status\s/.test(line));
  if (header < 0) return [];
  const names = lines[header]!.trim().split(/\s{2,}/);
  const rows: Array<Record<string, string>> = [];
  for (const line of lines.slice(header + 2)) {
    if (line.trim() === '') break;
    const cells = line.trim().split(/\s+/);
    rows.push(Object.fromEntries(names.map((name, i) => [name, cells[i] ?? ''])));
  }
  return rows;
}

describe('sweep of the Mesh gateway', () => {
  beforeAll(async () => {
    const out = tempDir('sweep');
    result = await runCli(['sweep', '--gateway', 'mesh', '-c', '4,16', '-d', '3', '-w', '1', '--out', out, '--run-id', 'e2e', ...portArgs(BASE_PORT)]);
    runDir = path.join(out, 'e2e');
    run = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as RunResult;
  }, 180_000);

  it('exits 0 with every step ok and every response valid', () => {
    expect(result.stderr).not.toMatch(/FAILED/);
    expect(result.code).toBe(0);
    expect(run.state).toBe('complete');
    expect(run.steps.map((s) => loadLevel(s.load))).toEqual([4, 16]);
    for (const step of run.steps) {
      // A 1 s warm-up on a cold gateway may leave the window trending: flagged, never failed. A
      // machine whose cores are shared (other work, or one twice as slow) may leave the harness's own
      // core the busy one: harness-bound, a caveat about the machine, never failed either.
      expect(['ok', 'unsteady', 'harness-bound']).toContain(step.status);
      expect(step.requests.ok).toBeGreaterThan(0);
      expect(step.requests.failed).toBe(0);
      expect(step.successRate).toBe(1);
      expect(step.rps).toBeGreaterThan(0);
      expect(step.latencyMs!.p99).toBeGreaterThanOrEqual(step.latencyMs!.p50);
      expect(step.gateway.cpuPercent).toBeGreaterThan(0);
      expect(step.gateway.rssMaxMB).toBeGreaterThan(20);
    }
  });

  it('measures each step as one continuous load whose window obeys Little’s law', () => {
    const little = run.analysis!.capacity!.littlesLaw;
    for (const [i, step] of run.steps.entries()) {
      // A closed loop keeps every connection busy: req/s × mean latency = connections. Over a window
      // of T s, each connection's latencies add up to T but for the request cut at each edge, at most
      // one latency (the window's max) at either end, and the moments between a response's last byte
      // and the next send (validating the response, about 0.2 ms of 30 ms or more: 5% is generous).
      const connections = loadLevel(step.load);
      const ratio = (step.rps * step.latencyMs!.mean) / 1000 / connections;
      const edge = step.latencyMs!.max / 1000 / step.timing.windowSec;
      expect(ratio, `c=${connections}`).toBeGreaterThanOrEqual(1 - edge - 0.05);
      expect(ratio, `c=${connections}`).toBeLessThanOrEqual(1 + edge);
      // The capacity analysis reports the same check (its ok/not-ok flag is the rules' own tests' business).
      expect(little[i]!.ratio!, `c=${connections}`).toBeCloseTo(ratio, 2);
      expect(step.requests.inFlightAtEnd).toBe(connections);
      expect(step.timing.windowSec).toBeGreaterThanOrEqual(3);
      expect(step.timing.settled).toBe(true);
      // The per-second series covers warm-up and window and adds up to the window's count.
      const window = step.series.filter((p) => p.phase === 'window');
      expect(window).toHaveLength(step.timing.windowSec);
      expect(window.reduce((a, p) => a + p.ok, 0)).toBe(step.requests.ok);
      expect(step.series.filter((p) => p.phase === 'warmup')).toHaveLength(step.timing.warmupSec);
    }
  });

  it('measures the fan-out of one request at a time, before the first step', () => {
    expect(run.fanoutAlone!.fanout).toBeGreaterThan(0);
  });

  it('reports fan-out from the subgraphs’ own request counts', () => {
    for (const step of run.steps) {
      expect(step.fanout).not.toBeNull();
      expect(step.fanout!).toBeGreaterThan(0);
      const perSubgraph = Object.values(step.subgraphs.perSubgraph).reduce((a, s) => a + s.requests, 0);
      expect(step.fanout).toBeCloseTo(perSubgraph / step.requests.total, 2);
    }
  });

  it('writes a CPU profile, a self-contained flame graph and buckets summing to 1 per step', () => {
    for (const step of run.steps) {
      expect(step.profile).toBeDefined();
      const profile = JSON.parse(readFileSync(path.join(runDir, step.profile!.cpuprofile), 'utf8')) as { nodes: unknown[]; samples: number[] };
      expect(profile.nodes.length).toBeGreaterThan(10);
      expect(profile.samples.length).toBe(step.profile!.samples);
      const analysis = run.analysis!.steps.find((a) => a.stepId === step.id)!;
      expect(analysis.samples).toBe(step.profile!.samples);
      const html = readFileSync(path.join(runDir, analysis.flamegraph!), 'utf8');
      expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/i);
      const buckets = analysis.buckets!;
      expect(Object.values(buckets).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
      expect(buckets.execute! + buckets.plan! + buckets.parse! + buckets.validate!).toBeGreaterThan(0);
    }
  });

  it('reproduces results.json, summary.md, index.html and the flame graphs byte for byte with gwprof report', async () => {
    const files = ['results.json', 'summary.md', 'index.html', ...run.analysis!.steps.map((a) => a.flamegraph!)];
    const live = files.map((file) => readFileSync(path.join(runDir, file)));
    const again = await runCli(['report', runDir, '--no-color']);
    expect(again.code).toBe(0);
    for (const [i, file] of files.entries()) expect(readFileSync(path.join(runDir, file)).equals(live[i]!), file).toBe(true);
  });

  it('writes summary.md and index.html, prints the table, and frees every port', async () => {
    expect(existsSync(path.join(runDir, 'summary.md'))).toBe(true);
    expect(existsSync(path.join(runDir, 'index.html'))).toBe(true);
    expect(existsSync(path.join(runDir, 'logs', 'gateway.log'))).toBe(true);
    // The printed table has a row per step, in order, with its level, status and counts.
    expect(stepTable(result.stdout).map((row) => [row.conc, row.status, row['ok/total']])).toEqual(
      run.steps.map((step) => [String(loadLevel(step.load)), step.status, `${step.requests.ok}/${step.requests.total}`]),
    );
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
    for (const pid of run.steps[0]!.gateway.pids) {
      expect(() => process.kill(pid, 0)).toThrow();
    }
  });
});

describe('the real run’s report in headless Chromium', () => {
  it('renders charts and tables with no console error and no network request, and links to working flame graphs', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: process.env.GWPROF_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const remote: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => !/^(file|data|blob):/.test(r.url()) && remote.push(r.url()));
      await page.goto(pathToFileURL(path.join(runDir, 'index.html')).href);
      for (const id of ['#throughput-chart', '#latency-chart', '#buckets-chart', '#steps-table', '#capacity', '#environment']) {
        expect(await page.locator(id).count(), id).toBe(1);
      }
      expect(await page.locator('#throughput-chart svg, svg#throughput-chart').count()).toBeGreaterThan(0);
      expect(await page.locator('#steps-table tr').count()).toBeGreaterThanOrEqual(3);
      const links = page.locator('a.flamegraph-link');
      expect(await links.count()).toBe(run.steps.length);
      await links.first().click();
      await page.waitForURL(/\.flame\.html/);
      await page.waitForSelector('canvas', { timeout: 20_000 });
      expect(await page.locator('canvas').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      expect(remote).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
