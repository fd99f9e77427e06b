/**
 * End to end: `gwprof soak` against a stub gateway that dies mid-soak, and Ctrl-C in the middle of
 * a soak. A planted leak called a leak is soak.long.test.ts's (`pnpm test:long`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SoakResult } from '@gwprof/results';
import { portArgs, portIsFree, runCli, startCli, stubGateway, stubScenario, tempDir } from './cli.js';

const BASE_PORT = 4600;
const stub = ['--gateway', stubGateway, ...stubScenario, '--gateway-env', 'STUB_SERVICE_MS=1', '--rate', '200', '--no-color', ...portArgs(BASE_PORT)];
const readSoak = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as SoakResult;

describe('gwprof soak', () => {
  it('records a gateway that dies mid-soak: when, its exit code, its last log lines, and the intervals before (exit 1)', async () => {
    const out = tempDir('soak-crash');
    // About 10 s of load at 200 req/s, then the stub exits with code 3.
    const result = await runCli([
      'soak',
      ...stub,
      '--gateway-env',
      'STUB_EXIT_AFTER=2000',
      '-d',
      '2m',
      '--interval',
      '5s',
      '--calm',
      '1s',
      '--out',
      out,
      '--run-id',
      's',
    ]);
    const soak = readSoak(path.join(out, 's'));
    expect(result.code).toBe(1);
    // The exit code is the one analysis derived and the record keeps.
    expect(soak.analysis!.exitCode).toBe(result.code);
    expect(soak.crash!.exitCode).toBe(3);
    expect(soak.crash!.logTail.join('\n')).toMatch(/exiting after 2000 requests/);
    expect(soak.crash!.atSec).toBeGreaterThan(5);
    expect(soak.crash!.atSec).toBeLessThan(60);
    expect(soak.intervals.length).toBeGreaterThanOrEqual(1);
    expect(soak.analysis!.verdict).toBe('crash');
    expect(result.stdout).toMatch(/The gateway died at .* \(exit code 3\)/);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 180_000);

  it('keeps every finished interval on Ctrl-C and leaves no process or port behind', async () => {
    const out = tempDir('soak-int');
    const { child, result } = startCli(['soak', ...stub, '-d', '10m', '--interval', '5s', '--calm', '1s', '--out', out, '--run-id', 's']);
    const file = path.join(out, 's', 'results.json');
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && !(existsSync(file) && readSoak(path.join(out, 's')).intervals.length >= 2)) await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGINT');
    const { code } = await result;
    const soak = readSoak(path.join(out, 's'));
    expect(code).toBe(130);
    expect(soak.state).toBe('interrupted');
    expect(soak.crash).toBeNull();
    expect(soak.intervals.length).toBeGreaterThanOrEqual(2);
    expect(soak.intervals.every((i) => i.requests.ok > 0)).toBe(true);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 180_000);
});
