/**
 * End to end: a native gateway as a built-in spec. Grafbase's gateway comes from the npm registry
 * in seconds (the routers that cargo builds for minutes are measured by benches, their output
 * committed): installed on first use into a cache, composed over the demo's subgraphs in their
 * Federation 2 form, every response validated against the same goldens as the Node gateways,
 * fan-out counted, its build and hash recorded, and the harness's processes and cores measured.
 * The native subgraphs come from the usual cache (built in the background by the global setup),
 * copied into the fresh one: how they are built on first use is the subject of
 * packages/collect/src/native-subgraphs.test.ts.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { buildNativeSubgraphs } from '../../packages/collect/src/services/native-subgraphs.js';
import { portArgs, runCli, tempDir } from './cli.js';

describe('a native gateway', () => {
  it('sweeps Grafbase over the Federation 2 subgraphs, every response validated, its build recorded', async () => {
    const out = tempDir('grafbase');
    const cache = tempDir('grafbase-cache');
    const subgraphs = path.dirname(await buildNativeSubgraphs({ onProgress: () => undefined }));
    cpSync(subgraphs, path.join(cache, 'gwprof', 'native', path.basename(subgraphs)), { recursive: true });
    const result = await runCli(['sweep', '--gateway', 'grafbase', '-c', '4', '-d', '3', '-w', '2', '--out', out, '--run-id', 'g', ...portArgs(4700)], {
      XDG_CACHE_HOME: cache,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/fetching @grafbase\/cli-x86_64-unknown-linux-musl@0\.103\.0 from the npm registry/);
    const run = JSON.parse(readFileSync(path.join(out, 'g', 'results.json'), 'utf8')) as RunResult;
    const step = run.steps[0]!;
    // Validated against the varied stream's goldens: a gateway that answered anything else would fail the step.
    expect(step.requests.ok).toBeGreaterThan(50);
    expect(step.requests.failed).toBe(0);
    expect(step.status).not.toBe('failed');
    // Grafbase plans the varied query in fewer subgraph calls than Mesh's 8, and more than none.
    expect(step.fanout).toBeGreaterThan(2);
    expect(step.fanout).toBeLessThan(8);
    const build = run.environment.gatewayBuilds?.grafbase;
    expect(build).toMatchObject({ version: '0.103.0', licence: 'MPL-2.0', profile: 'as published' });
    expect(build!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(build!.binary)).toBe(true);
    expect(build!.binary.startsWith(cache)).toBe(true);
    // Its subgraph URLs are the Federation 2 form, and each schema a file (an introspection URL makes the dev server poll).
    const configDir = path.join(out, 'g', 'grafbase', '4701-4702-4703-4704');
    const config = readFileSync(path.join(configDir, 'grafbase.toml'), 'utf8');
    expect(config).toMatch(/url = "http:\/\/127\.0\.0\.1:4701\/fed2\/graphql"/);
    // By its full path: Grafbase CLIs before 0.92 read no relative one from the working folder.
    expect(config).toContain(`schema_path = ${JSON.stringify(path.join(configDir, 'accounts.graphql'))}`);
    expect(config).not.toMatch(/introspection_url/);
    expect(readFileSync(path.join(configDir, 'accounts.graphql'), 'utf8')).toMatch(/@key/);
    // Profiled with perf: a CPU profile of CPU time, its perf script text and a flame graph.
    expect(step.profile?.samples).toBeGreaterThan(50);
    for (const file of ['step-4.cpuprofile', 'step-4.perf.txt', 'step-4.flame.html']) expect(existsSync(path.join(out, 'g', file)), file).toBe(true);
    expect(run.analysis!.steps[0]!.buckets).not.toEqual({});
    // The harness: every process measured, both sides' cores.
    expect(Object.keys(step.harness!.processes)).toEqual(['load engine', 'accounts', 'reviews', 'products', 'inventory', 'perf']);
    expect(step.harness!.gatewayCores?.cpus).toBeDefined();
  }, 600_000);
});
