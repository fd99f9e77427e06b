/**
 * Profiles a Node.js gateway that gwprof did not start (`--gateway url:… --gateway-pid PID`):
 * SIGUSR1 makes Node open its inspector on 127.0.0.1:9229 (what `node inspect -p PID` does), and
 * V8's sampler is driven over the inspector protocol. The inspector stays open until the
 * gateway exits; Node offers no way to close it from outside.
 */
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WebSocket } from 'undici';
import { GwprofError } from '@gwprof/results';
import { pidListeningOn } from '../processes/listening-pid.js';
import type { GatewayProfiler, SamplingPlan, WrittenProfile } from './gateway-profiler.js';

const INSPECTOR_PORT = 9229;

/** True when the process runs a `node` executable: SIGUSR1 would kill anything else. */
export function isNodeProcess(pid: number): boolean {
  try {
    const exe = path.basename(readlinkSync(`/proc/${pid}/exe`));
    const argv0 = path.basename(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '');
    return /^node(js)?(\d+)?$/.test(exe) || /^node(js)?(\d+)?$/.test(argv0);
  } catch {
    return false;
  }
}

async function inspectorUrl(pid: number, deadline: number): Promise<string> {
  for (;;) {
    if (pidListeningOn(INSPECTOR_PORT, [pid]) !== null) {
      const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).json()) as Array<{ webSocketDebuggerUrl?: string }>;
      const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
      if (url) return url;
    }
    if (Date.now() > deadline)
      throw new GwprofError(`pid ${pid} did not open its inspector on 127.0.0.1:${INSPECTOR_PORT} (is the port taken by another process?)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export class InspectorProfiler implements GatewayProfiler {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => this.onMessage(String(event.data)));
    socket.addEventListener('close', () => this.failAll('the inspector connection closed (did the gateway exit?)'));
  }

  static async attach(pid: number, timeoutMs = 10_000): Promise<InspectorProfiler> {
    if (!isNodeProcess(pid)) throw new GwprofError(`--gateway-pid ${pid} is not a running Node.js process: it cannot be CPU-profiled`);
    process.kill(pid, 'SIGUSR1');
    const url = await inspectorUrl(pid, Date.now() + timeoutMs);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new GwprofError(`cannot connect to the inspector of pid ${pid} at ${url}`)), { once: true });
    });
    return new InspectorProfiler(socket);
  }

  private onMessage(text: string): void {
    const message = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const waiter = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    if (message.error) waiter?.reject(new GwprofError(`inspector: ${message.error.message}`));
    else waiter?.resolve(message.result);
  }

  private failAll(reason: string): void {
    for (const waiter of this.waiting.values()) waiter.reject(new GwprofError(reason));
    this.waiting.clear();
  }

  private post<T>(method: string, params: object = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  private samplingHeap = false;

  async start(plan: SamplingPlan): Promise<void> {
    if (plan.heapSamplingBytes) {
      // As the preload does: every sampled object kept, so the profile is what was allocated.
      await this.post('HeapProfiler.enable');
      await this.post('HeapProfiler.startSampling', {
        samplingInterval: plan.heapSamplingBytes,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      this.samplingHeap = true;
    }
    await this.post('Profiler.enable');
    await this.post('Profiler.setSamplingInterval', { interval: plan.intervalUs });
    await this.post('Profiler.start');
  }

  /** No preload runs in this gateway: Node's GC and thread accounts are not available. */
  async stop(files: { cpuprofile: string; heapprofile: string | null }): Promise<WrittenProfile> {
    const { profile } = await this.post<{ profile: { samples?: number[] } }>('Profiler.stop');
    await this.post('Profiler.disable');
    let heapSamples: number | null = null;
    if (this.samplingHeap) {
      this.samplingHeap = false;
      const { profile: heap } = await this.post<{ profile: { samples?: unknown[] } }>('HeapProfiler.stopSampling');
      await this.post('HeapProfiler.disable');
      if (files.heapprofile) writeFileSync(files.heapprofile, JSON.stringify(heap));
      heapSamples = heap.samples?.length ?? 0;
    }
    writeFileSync(files.cpuprofile, JSON.stringify(profile));
    return { samples: profile.samples?.length ?? 0, heapSamples, nodeGc: null, threadCpuMs: null };
  }

  close(): void {
    this.socket.close();
  }
}
