/** Runs the built gwprof CLI as a user would, for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '@gwprof/results';

export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const cliBin = path.join(repoRoot, 'packages/cli/dist/bin.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `gwprof-${prefix}-`));
}

/** Ports well away from the defaults, so a developer's running services don't collide with tests. */
export function portArgs(base: number): string[] {
  return ['--gateway-port', String(base), '--subgraph-ports', [1, 2, 3, 4].map((i) => base + i).join(',')];
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = repoRoot): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [cliBin, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const result = new Promise<CliResult>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, result };
}

/** Polls until `predicate` holds, or fails after timeoutMs. */
export async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = repoRoot): Promise<CliResult> {
  return startCli(args, env, cwd).result;
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The stub gateway (fixtures/stub-gateway.mjs) as a gateway spec; its service time comes from its env. */
export const stubGateway = `cmd:node ${path.join(repoRoot, 'fixtures', 'stub-gateway.mjs')}`;
/** The query and golden response the stub answers. */
export const stubScenario = ['--query', path.join(repoRoot, 'fixtures', 'stub.graphql'), '--expect', path.join(repoRoot, 'fixtures', 'stub.expected.json')];

/** `gwprof sweep` of the stub gateway, unprofiled, with `env` for the stub; its exit, output and results.json. */
export async function sweepStub(basePort: number, env: string[], extra: string[]): Promise<{ code: number | null; stdout: string; run: RunResult }> {
  const out = tempDir('stub');
  const result = await runCli([
    'sweep',
    '--gateway',
    stubGateway,
    ...stubScenario,
    '--no-profile',
    ...env.flatMap((e) => ['--gateway-env', e]),
    ...extra,
    '--out',
    out,
    '--run-id',
    's',
    '--no-color',
    ...portArgs(basePort),
  ]);
  return { code: result.code, stdout: result.stdout, run: JSON.parse(readFileSync(path.join(out, 's', 'results.json'), 'utf8')) as RunResult };
}
