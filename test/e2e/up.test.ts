/**
 * End to end: `gwprof up` keeps a test bed running for other tools; `--gateway url:…` measures it
 * (with `--gateway-pid`, its CPU and a CPU profile through the inspector); SIGTERM leaves nothing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { pidAlive, portArgs, portIsFree, repoRoot, runCli, startCli, tempDir } from './cli.js';

const BASE_PORT = 4580;

describe('gwprof up, then a sweep of the running gateway by URL', () => {
  it('serves the bed until SIGTERM, is measured and profiled by URL and pid, and leaves nothing behind', async () => {
    const up = startCli([
      'up',
      '--gateway',
      `cmd:node ${path.join(repoRoot, 'fixtures', 'stub-gateway.mjs')}`,
      '--gateway-env',
      'STUB_SERVICE_MS=2',
      '--out',
      tempDir('up'),
      ...portArgs(BASE_PORT),
    ]);
    let stdout = '';
    up.child.stdout!.on('data', (chunk) => (stdout += chunk));
    const deadline = Date.now() + 60_000;
    while (!/measure it:/.test(stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const url = /^gateway\s+(\S+)\s+pid (\d+)/m.exec(stdout);
    expect(url, stdout).not.toBeNull();
    const [, gatewayUrl, pid] = url!;
    const subgraphPids = [...stdout.matchAll(/^subgraph\s+\S+\s+pid (\d+)/gm)].map((m) => Number(m[1]));
    expect(subgraphPids).toHaveLength(4);

    const out = tempDir('url');
    const sweep = await runCli([
      'sweep',
      '--gateway',
      `url:${gatewayUrl}`,
      '--gateway-pid',
      pid!,
      '--subgraph-ports',
      [1, 2, 3, 4].map((i) => BASE_PORT + i).join(','),
      '--query',
      path.join(repoRoot, 'fixtures', 'stub.graphql'),
      '--expect',
      path.join(repoRoot, 'fixtures', 'stub.expected.json'),
      '-c',
      '4',
      '-d',
      '3',
      '-w',
      '2',
      '--out',
      out,
      '--run-id',
      'u',
      '--no-color',
    ]);
    const run = JSON.parse(readFileSync(path.join(out, 'u', 'results.json'), 'utf8')) as RunResult;
    const step = run.steps[0]!;
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(step.requests.ok).toBeGreaterThan(0);
    expect(step.gateway.cpuPercent).toBeGreaterThan(0);
    // Profiled through the inspector of a process gwprof did not start.
    expect(step.profile!.samples).toBeGreaterThan(0);
    expect(run.environment.cpuSets.gateway).toBeNull();
    // The bed is still up for the next tool.
    expect(pidAlive(Number(pid))).toBe(true);

    up.child.kill('SIGTERM');
    const { code } = await up.result;
    expect(code).toBe(0);
    for (const p of [Number(pid), ...subgraphPids]) expect(pidAlive(p)).toBe(false);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 180_000);

  it('refuses a URL that is not on loopback', async () => {
    const result = await runCli(['sweep', '--gateway', 'url:http://example.com/graphql', '-c', '1', '-d', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('gwprof: gateway URL http://example.com/graphql: gwprof sends load to loopback only (127.0.0.1, localhost or [::1])');
  });
});
