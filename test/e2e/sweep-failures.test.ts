/**
 * End to end: what must never produce a green table. A query the gateway rejects fails the
 * step and the command; bad input fails fast with one line; an interrupted sweep keeps its
 * finished steps and leaves no process or port behind. A gateway that dies mid-profile is
 * sweep-failures.long.test.ts's (`pnpm test:long`).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { cliBin, pidAlive, portArgs, portIsFree, runCli, startCli, stubGateway, stubScenario, tempDir, waitFor } from './cli.js';

const BASE_PORT = 4520;

describe('failing and interrupted sweeps', () => {
  it('marks a step whose query the gateway rejects as failed and exits non-zero', async () => {
    const out = tempDir('rejected');
    const query = path.join(out, 'rejected.graphql');
    writeFileSync(query, 'query Rejected { users { id doesNotExist } }\n');
    const result = await runCli([
      'sweep',
      '--no-profile',
      '-c',
      '4',
      '-d',
      '2',
      '-w',
      '0',
      '--query',
      query,
      '--expect-none',
      '--out',
      out,
      '--run-id',
      'r',
      ...portArgs(BASE_PORT),
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAILED/);
    expect(result.stderr).toMatch(/1 of 1 steps FAILED/);
    const run = JSON.parse(readFileSync(path.join(out, 'r', 'results.json'), 'utf8')) as RunResult;
    const step = run.steps[0]!;
    expect(step.status).toBe('failed');
    expect(step.requests.ok).toBe(0);
    expect(step.rps).toBe(0);
    expect(step.failureCounts.graphqlErrors + step.failureCounts.non2xx).toBe(step.requests.total);
    expect(step.failureSamples[0]!.message).toMatch(/doesNotExist/);
    // Not one response succeeded, so the window closed at its 2 s minimum instead of growing to its cap for successes.
    expect(step.timing.windowSec).toBe(2);
    expect(step.warnings).toContainEqual(expect.stringMatching(/^no successful response in 2 s \(\d+ failed\): closed at its minimum$/));
    expect(step.failures[0]).toMatch(/success rate 0\.00% is below the required 100\.00%/);
  }, 120_000);

  it('stops every process on SIGINT and keeps the finished steps', async () => {
    const out = tempDir('interrupted');
    // Any gateway that answers will do: the stub, started in a moment where Mesh builds first.
    const stub = ['--gateway', stubGateway, ...stubScenario];
    const { child, result } = startCli([
      'sweep',
      ...stub,
      '--no-profile',
      '-c',
      '4,8,16',
      '-d',
      '3',
      '-w',
      '0',
      '--out',
      out,
      '--run-id',
      'i',
      ...portArgs(BASE_PORT),
    ]);
    const resultsFile = path.join(out, 'i', 'results.json');
    await waitFor(() => {
      try {
        return (JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResult).steps.length >= 1;
      } catch {
        return false;
      }
    }, 90_000);
    child.kill('SIGINT');
    const { code } = await result;
    expect(code).toBe(130);
    const run = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResult;
    expect(run.state).toBe('interrupted');
    expect(run.steps.length).toBeGreaterThanOrEqual(1);
    expect(run.steps.length).toBeLessThan(3);
    for (const pid of run.steps[0]!.gateway.pids) expect(pidAlive(pid)).toBe(false);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 120_000);

  it('leaves no gateway or subgraph behind even when the harness itself is SIGKILLed', async () => {
    const out = tempDir('killed');
    const stub = ['--gateway', stubGateway, ...stubScenario];
    const { child, result } = startCli([
      'sweep',
      ...stub,
      '--no-profile',
      '-c',
      '4',
      '-d',
      '60',
      '-w',
      '0',
      '--out',
      out,
      '--run-id',
      'k',
      ...portArgs(BASE_PORT),
    ]);
    const gatewayLog = path.join(out, 'k', 'logs', 'gateway.log');
    await waitFor(() => {
      try {
        return readFileSync(gatewayLog, 'utf8').includes('gateway-ready');
      } catch {
        return false;
      }
    }, 90_000);
    child.kill('SIGKILL');
    await result;
    // The kernel kills the gateway (parent-death signal); the subgraphs notice their parent is gone.
    const deadline = Date.now() + 10_000;
    let free = false;
    while (!free && Date.now() < deadline) {
      free = (await Promise.all([0, 1, 2, 3, 4].map((i) => portIsFree(BASE_PORT + i)))).every(Boolean);
      if (!free) await new Promise((r) => setTimeout(r, 250));
    }
    expect(free).toBe(true);
  }, 120_000);

  it('names a busy port and starts nothing', async () => {
    const blocker = net.createServer().listen(BASE_PORT + 2, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    try {
      const out = tempDir('busy');
      const result = await runCli(['sweep', '--no-profile', '-c', '2', '-d', '1', '--out', out, ...portArgs(BASE_PORT)]);
      expect(result.code).toBe(2);
      // One line, before anything: no tables, no run folder.
      expect(result.stderr.trim()).toMatch(new RegExp(`^gwprof: port ${BASE_PORT + 2} \\(subgraph reviews\\) is already in use[^\\n]*$`));
      expect(result.stdout).toBe('');
      expect(readdirSync(out)).toEqual([]);
      expect(await portIsFree(BASE_PORT + 1)).toBe(true);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('shows the log tail of a gateway that fails to start', async () => {
    const result = await runCli([
      'sweep',
      '--no-profile',
      '-c',
      '2',
      '-d',
      '1',
      '--out',
      tempDir('crash'),
      ...portArgs(BASE_PORT),
      '--gateway',
      `cmd:node -e "console.error('boom: missing config'); process.exit(3)"`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/gateway cmd:.* failed to start/);
    expect(result.stderr).toMatch(/boom: missing config/);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 60_000);

  it("says at once what a gateway answered its readiness probe with, when that answer is not GraphQL's", async () => {
    // A stand-in that answers every POST with well-formed JSON data, but not { __typename }'s.
    const standIn = `require('http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"data":{"ok":true}}'); }).listen(process.env.PORT, '127.0.0.1')`;
    const started = Date.now();
    const result = await runCli([
      'sweep',
      '--no-profile',
      '-c',
      '2',
      '-d',
      '1',
      '--out',
      tempDir('wrong-answer'),
      ...portArgs(BASE_PORT),
      '--gateway',
      `cmd:node -e "${standIn.replace(/"/g, '\\"')}"`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('answered { __typename } with HTTP 200 "{\\"data\\":{\\"ok\\":true}}"');
    expect(result.stderr).not.toMatch(/process exited|within 120 s/);
    // The start-up wait would have lasted 120 s; a wrong answer ends it at the first probe.
    expect(Date.now() - started).toBeLessThan(60_000);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 90_000);

  it('rejects bad input with one line that says what to fix', async () => {
    const unknown = await runCli(['sweep', '--gateway', 'nginx', '--out', tempDir('bad')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      'gwprof: unknown gateway "nginx": use one of mesh, hive, apollo, grafbase, hive-router, apollo-router or cmd:<shell command> (another version: hive-router@0.3.x, grafbase@0.100.0, hive@2.10.4)',
    );
    const missing = await runCli(['sweep', '--query', '/nonexistent/q.graphql', '--out', tempDir('bad')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/query file \/nonexistent\/q\.graphql does not exist/);
    const badList = await runCli(['sweep', '-c', '10,abc']);
    expect(badList.code).toBe(2);
    expect(badList.stderr).toMatch(/--concurrency must be a comma-separated list/);
  }, 60_000);

  it('refuses a concurrency the open-file limit cannot hold, before starting anything', async () => {
    // Run under a low hard limit, whatever the test runner's own limit is.
    const limited = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        'prlimit',
        ['--nofile=1024:1024', process.execPath, cliBin, 'sweep', '-c', '10,2000', '--out', tempDir('fd'), ...portArgs(BASE_PORT)],
        (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(limited.code).toBe(2);
    expect(limited.stderr).toMatch(/concurrency 2000 needs about 4256 open files but the hard limit is 1024/);
  }, 60_000);
});
