/** What the benchmarks share: where the repository is, and the sweep's closed-loop load for a while. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS, LoadRecorder, RequestStream, openSession, startClosedLoop, wireRequests, type Session, type loadScenario } from '@gwprof/collect';

/** The repository's root (this file runs from bench/dist/). */
export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export type WindowStats = ReturnType<LoadRecorder['window']>;

/** A session as a sweep opens one (default ports, the profiler preload), its folder in /tmp, progress on stderr. */
export function benchSession(label: string, maxConcurrency: number): Session {
  return openSession({
    outDir: mkdtempSync(path.join(os.tmpdir(), `gwprof-${label}-`)),
    label,
    maxConcurrency,
    gatewayPackages: {},
    profiler: 'inspector',
    commandLine: process.argv.slice(2),
    subgraphPorts: DEFAULTS.subgraphPorts,
    subgraphDelayMs: 0,
    gatewayPort: DEFAULTS.gatewayPort,
    onProgress: (line) => process.stderr.write(`${line}\n`),
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The sweep's own engine: a closed loop of `connections` for `seconds`, every response validated. */
export async function closedLoopFor(options: {
  url: string;
  connections: number;
  seconds: number;
  timeoutMs: number;
  scenario: ReturnType<typeof loadScenario>;
}): Promise<WindowStats> {
  const recorder = new LoadRecorder(performance.now());
  const stream = new RequestStream(options.scenario);
  const engine = startClosedLoop({
    wire: wireRequests(options.url, stream.bodies),
    connections: options.connections,
    timeoutMs: options.timeoutMs,
    stream,
    recorder,
  });
  await sleep(options.seconds * 1000 + 20);
  await engine.stop();
  return recorder.window(0, options.seconds);
}

/** `value` with `digits` decimals, or '–' when there is none. */
export const fixed = (value: number | null | undefined, digits: number): string =>
  value === null || value === undefined ? '–' : Number(value).toFixed(digits);

/** One load generator's run: validated responses and their latency. */
export interface ToolRun {
  ok: number;
  okIncludingLate?: number;
  failed: number;
  rps: number;
  p50: number | null;
  p99: number | null;
  timeouts: number;
  /** The load generator's own CPU seconds (user + system), where measured. */
  cpuSeconds?: number;
  /**
   * Where the tool ran past the counted window (k6 finishes its last iterations), what it did in
   * its whole run, so costs per response (fan-out, CPU) divide the whole run's work by it.
   */
  wholeRun?: { ok: number; requests: number };
}

/**
 * A load generator run to its end under GNU time, pinned to `cpus` when given: its exit code, its
 * stdout and stderr, and the CPU seconds its process tree used (what the tool costs).
 */
export function runTimed(
  command: string,
  args: string[],
  options: { cpus?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; cpuSeconds: number }> {
  const pinned = options.cpus ? ['taskset', '-c', options.cpus, command, ...args] : [command, ...args];
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/time', ['-f', 'gwprof-cpu %U %S', ...pinned], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      const cpu = /gwprof-cpu ([\d.]+) ([\d.]+)/.exec(stderr);
      resolve({ code, stdout, stderr, cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN });
    });
  });
}

/** A server of the benchmark's own, pinned to the machine's last core (the load runs on core 0), its output discarded. */
export function startPinnedServer(script: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const cores = os.availableParallelism();
  const pinned = cores >= 2 ? ['-c', String(cores - 1), process.execPath, ...script] : null;
  return spawn(pinned ? 'taskset' : process.execPath, pinned ?? script, { env: { ...process.env, ...env }, stdio: 'ignore' });
}

/** Waits until something listens on the loopback port, for at most 10 s. */
export async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on port ${port}`);
}

/** One run of a load engine script (bench/dist/loadgen-engine.js or another build of it) on core 0: the summary it prints. */
export async function engineSummary<T>(script: string, args: string[]): Promise<T> {
  const run = await runTimed(process.execPath, [script, ...args], { cpus: '0' });
  const line = run.stdout.split('\n').find((l) => l.startsWith('{'));
  if (run.code !== 0 || !line) throw new Error(`the engine failed (${run.code}): ${run.stdout}${run.stderr}`);
  return JSON.parse(line) as T;
}

/** What bench/wrk/graphql.lua prints when wrk is done. */
interface WrkSummary {
  ok: number;
  bad: number;
  duration_us: number;
  timeouts: number;
  p50_us: number;
  p99_us: number;
}

/** Debian's wrk with bench/wrk/graphql.lua, which counts only validated responses. */
export async function wrkRun(options: {
  url: string;
  connections: number;
  seconds: number;
  cpus: string;
  timeoutSec: number;
  bodiesFile: string;
}): Promise<ToolRun> {
  const lua = path.join(repoRoot, 'bench', 'wrk', 'graphql.lua');
  const args = [
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    `${options.timeoutSec}s`,
    '-s',
    lua,
    options.url,
    '--',
    options.bodiesFile,
  ];
  const run = await runTimed('wrk', args, { cpus: options.cpus });
  const line = run.stdout.split('\n').find((l) => l.startsWith('{"ok"'));
  if (run.code !== 0 || !line) throw new Error(`wrk failed (${run.code}): ${run.stdout}${run.stderr}`);
  const r = JSON.parse(line) as WrkSummary;
  const secs = r.duration_us / 1e6;
  // wrk runs the Lua response() for every response, so a valid answer that came after --timeout is
  // in r.ok, while wrk's C code counts the same answer as a timeout. gwprof counts it as a failure
  // only, so the comparable figure is ok − timeouts (exact when late answers are valid, as Mesh's are).
  const okOnTime = Math.max(0, r.ok - r.timeouts);
  return {
    ok: okOnTime,
    okIncludingLate: r.ok,
    failed: r.bad,
    rps: okOnTime / secs,
    p50: r.p50_us / 1000,
    p99: r.p99_us / 1000,
    timeouts: r.timeouts,
    cpuSeconds: run.cpuSeconds,
  };
}
