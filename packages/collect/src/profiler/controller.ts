/**
 * The harness's side of the in-process profiler: finds the gateway's control socket and asks
 * it to start and stop V8's sampler around each measurement window.
 */
import net from 'node:net';
import type { GatewayProfiler, SamplingPlan, WrittenProfile } from './gateway-profiler.js';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GwprofError, type RssAndHeap } from '@gwprof/results';
import { clockTicksPerSecond } from '../processes/proc-stats.js';
import type { MemoryAfterGc, NativeMemoryDetail, ProcessStats, ProfilerCommand, ProfilerEnvelope, ProfilerOp, ProfilerReply } from './protocol.js';

/** The preload to pass to the gateway: `node --require <this>`. */
export const profilerPreloadPath = fileURLToPath(new URL('./preload.cjs', import.meta.url));

export function profilerSocketPath(directory: string, pid: number): string {
  return path.join(directory, `profiler-${pid}.sock`);
}

/** Node options that load the preload, appended to the user's own NODE_OPTIONS. */
export function withProfilerPreload(nodeOptions: string | undefined): string {
  const preload = `--require ${profilerPreloadPath}`;
  return nodeOptions ? `${nodeOptions} ${preload}` : preload;
}

export class ProfilerClient implements GatewayProfiler {
  private constructor(private readonly socket: net.Socket) {}

  private buffer = '';
  private readonly waiting: Array<(line: string) => void> = [];

  static async connect(directory: string, pid: number, timeoutMs = 10_000): Promise<ProfilerClient> {
    const socketPath = profilerSocketPath(directory, pid);
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(socketPath)) {
      if (Date.now() > deadline) {
        throw new GwprofError(`the gateway process (pid ${pid}) did not load the profiler preload: is it a Node.js process that honours NODE_OPTIONS?`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(socketPath);
      s.once('connect', () => resolve(s));
      s.once('error', reject);
    });
    const client = new ProfilerClient(socket);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => client.onData(chunk));
    socket.on('error', () => client.failAll());
    socket.on('close', () => client.failAll());
    return client;
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.waiting.shift()?.(line);
    }
  }

  private failAll(): void {
    for (const waiter of this.waiting.splice(0)) waiter(JSON.stringify({ ok: false, error: 'the gateway closed the profiler connection (did it exit?)' }));
  }

  private request<K extends ProfilerOp>(command: Extract<ProfilerCommand, { op: K }>, timeoutMs: number): Promise<ProfilerReply<K>> {
    if (this.socket.destroyed) {
      return Promise.reject(new GwprofError('the gateway closed the profiler connection (did it exit?)'));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new GwprofError(`profiler did not answer ${JSON.stringify(command)} within ${timeoutMs} ms`)), timeoutMs);
      this.waiting.push((line) => {
        clearTimeout(timer);
        // The preload answers each command with the envelope of that command's op, in order.
        const envelope = JSON.parse(line) as ProfilerEnvelope<K>;
        if (envelope.ok) resolve(envelope.reply);
        else reject(new GwprofError(`profiler: ${envelope.error}`));
      });
      this.socket.write(`${JSON.stringify(command)}\n`);
    });
  }

  async start(plan: SamplingPlan): Promise<void> {
    await this.request({ op: 'start', intervalUs: plan.intervalUs, ...(plan.heapSamplingBytes ? { heapSamplingBytes: plan.heapSamplingBytes } : {}) }, 10_000);
  }

  /** Stops sampling and has the gateway write the profiles; returns what it reported of the window. */
  async stop(files: { cpuprofile: string; heapprofile: string | null }): Promise<WrittenProfile> {
    const reply = await this.request({ op: 'stop', file: files.cpuprofile, ...(files.heapprofile ? { heapFile: files.heapprofile } : {}) }, 60_000);
    return { samples: reply.samples, heapSamples: reply.heapSamples, nodeGc: reply.nodeGc, threadCpuMs: threadCpuMsOf(reply.threadTicks) };
  }

  async setInlining(enabled: boolean): Promise<{ ms: number }> {
    const { ms } = await this.request({ op: 'inlining', enabled }, 60_000);
    return { ms };
  }

  async startHeapSampling(heapSamplingBytes: number): Promise<void> {
    await this.request({ op: 'heapStart', heapSamplingBytes }, 10_000);
  }

  async stopHeapSampling(heapprofile: string): Promise<{ heapSamples: number }> {
    const { heapSamples } = await this.request({ op: 'heapStop', heapFile: heapprofile }, 60_000);
    return { heapSamples };
  }

  /** The process's state now (memory, descriptors, resources, event-loop delay and GC ms since the last call). */
  stats(): Promise<ProcessStats> {
    return this.request({ op: 'stats' }, 10_000);
  }

  /** A full GC, then memory as it stands after it. */
  collectGarbage(): Promise<MemoryAfterGc & NativeMemoryDetail> {
    return this.request({ op: 'gc' }, 120_000);
  }

  /** Bytes allocated on V8's heap since the first call (which returns 0): the difference of two calls is what was allocated between them. */
  async allocatedBytes(): Promise<number> {
    const { bytes } = await this.request({ op: 'allocated' }, 10_000);
    return bytes;
  }

  /**
   * Has the gateway write a heap snapshot to `file` (it blocks its event loop meanwhile): its size
   * in bytes, and its RSS and heap just before and after.
   */
  async writeHeapSnapshot(file: string): Promise<{ bytes: number; memoryAround: { before: RssAndHeap; after: RssAndHeap } }> {
    const { bytes, memoryAround } = await this.request({ op: 'snapshot', file }, 600_000);
    return { bytes, memoryAround };
  }

  close(): void {
    this.socket.destroy();
  }
}

export type { MemoryAfterGc, NativeMemoryDetail, ProcessStats } from './protocol.js';

/** The preload's per-thread clock ticks in ms. */
function threadCpuMsOf(ticks: { main: number; others: number } | null | undefined): WrittenProfile['threadCpuMs'] {
  if (!ticks) return null;
  const msPerTick = 1000 / clockTicksPerSecond();
  return { main: ticks.main * msPerTick, others: ticks.others * msPerTick };
}
