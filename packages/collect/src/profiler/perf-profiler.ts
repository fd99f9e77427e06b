/**
 * Profiles a native gateway with Linux `perf`: every thread of the process sampled on the CPU
 * clock at a fixed period over the step's window, with whole stacks (frame pointers where the build
 * keeps them, DWARF unwinding where it does not), kernel frames included. perf is switched on when
 * the window opens and off when it closes (perf-control.ts), so the profile spans what the window's
 * CPU meters span. At the window's end the samples are read with `perf script`, kept as text beside
 * the profile (for anyone's tools), and written as a .cpuprofile whose weights are CPU time
 * (analysis's perf-script.ts), so buckets, top functions and flame graphs work as for Node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { parsePerfScript, perfProfile } from '@gwprof/analysis';
import { GwprofError } from '@gwprof/results';
import type { GatewayProfiler, SamplingPlan, WrittenProfile } from './gateway-profiler.js';
import { PerfControl, perfTakesControl } from './perf-control.js';

/** How long perf may take to set up its events before the window gives up on it. */
const ENABLE_TIMEOUT_MS = 30_000;

/** How perf walks a native gateway's stacks: by frame pointers (cheap) or by copying the stack for DWARF (heavier). */
export type StackWalk = 'fp' | 'dwarf';

/** perf's version, or null when it is not on PATH. */
export function perfVersion(): string | null {
  try {
    return execFileSync('perf', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** perf on a native gateway's process, or why not. */
export function perfProfilerOf(pid: number, stackWalk: StackWalk, dataFile: string): { profiler: PerfProfiler | null; unavailable: string | null } {
  if (!perfVersion())
    return { profiler: null, unavailable: 'a native gateway is profiled with Linux perf, which is not on the PATH (Debian: apt-get install linux-perf)' };
  return { profiler: new PerfProfiler(pid, stackWalk, dataFile), unavailable: null };
}

export class PerfProfiler implements GatewayProfiler {
  private recording: ChildProcess | null = null;
  private exited: Promise<number | null> | null = null;
  private control: PerfControl | null = null;

  constructor(
    private readonly pid: number,
    private readonly stackWalk: StackWalk,
    private readonly dataFile: string,
  ) {}

  async start(plan: SamplingPlan): Promise<void> {
    const callGraph = this.stackWalk === 'dwarf' ? 'dwarf,16384' : 'fp';
    // A fixed period of the CPU clock (ns): every sample weighs the same CPU time, on every thread.
    const args = [
      'record',
      '-e',
      'cpu-clock',
      '-c',
      String(plan.intervalUs * 1000),
      '--call-graph',
      callGraph,
      '-p',
      String(this.pid),
      '-o',
      this.dataFile,
      '-q',
    ];
    this.control = perfTakesControl(perfVersion()) ? new PerfControl(this.dataFile) : null;
    const child = spawn('perf', [...args, ...(this.control?.args() ?? [])], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    // Sampling has started once perf acknowledges `enable`; an older perf is taken to be running after 300 ms.
    const started = this.control ? this.control.send('enable').then(() => null) : delay(300).then(() => null);
    let timer: NodeJS.Timeout | undefined;
    const failed = await Promise.race([
      new Promise<string>((resolve) => child.once('error', (error) => resolve(`perf could not run: ${error.message}`))),
      this.exited.then((code) => `perf record exited at once (${code}): ${stderr.trim().split('\n').slice(-2).join(' | ')}`),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`perf did not start sampling within ${ENABLE_TIMEOUT_MS / 1000} s`), ENABLE_TIMEOUT_MS);
      }),
      started,
    ]);
    clearTimeout(timer);
    if (failed) {
      child.kill('SIGKILL');
      this.closeControl();
      throw new GwprofError(failed);
    }
    this.recording = child;
  }

  async stop(files: { cpuprofile: string; heapprofile: string | null }): Promise<WrittenProfile> {
    if (!this.recording || !this.exited) throw new Error('perf was not recording');
    // Off first, so the samples end when the window did, not when perf has written its file.
    if (this.control) await Promise.race([this.control.send('disable'), this.exited, delay(5_000)]);
    this.recording.kill('SIGINT');
    await this.exited;
    this.recording = null;
    this.closeControl();
    const text = perfScript(this.dataFile);
    rmSync(this.dataFile, { force: true });
    writeFileSync(files.cpuprofile.replace(/\.cpuprofile$/, '.perf.txt'), text);
    const samples = parsePerfScript(text);
    writeFileSync(files.cpuprofile, JSON.stringify(perfProfile(samples)));
    return { samples: samples.length, heapSamples: null, nodeGc: null, threadCpuMs: null };
  }

  samplerPid(): number | null {
    return this.recording?.pid ?? null;
  }

  close(): void {
    this.recording?.kill('SIGKILL');
    this.closeControl();
  }

  private closeControl(): void {
    this.control?.close();
    this.control = null;
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `--no-inline`: Debian's perf resolves inlined frames by piping every address to addr2line, which
 * took minutes for a 15 s window of Grafbase's binary (it carries DWARF); without it a sample's leaf
 * is the function the code was inlined into.
 */
function perfScript(dataFile: string): string {
  try {
    return execFileSync('perf', ['script', '--no-inline', '-i', dataFile], {
      encoding: 'utf8',
      maxBuffer: 1024 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    throw new GwprofError(`perf script could not read the samples: ${(error as Error).message.split('\n')[0]}`);
  }
}
