/**
 * The in-process profiler end to end: a real Node process with the preload, driven over its socket.
 * The child does its work only when the test asks (over IPC) and only between start and stop, so
 * what the window holds is known by causality, not by how fast the machine happens to be.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants as perfConstants } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../paths.js';
import { ProfilerClient, withProfilerPreload } from './controller.js';

const preload = path.join(repoRoot, 'packages/collect/dist/profiler/preload.cjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-profiler-'));
/**
 * On { cpuMs, gcs, objects }: forces `gcs` full GCs, allocates `objects` small objects, then runs busyLoop until the process has used `cpuMs`
 * more CPU, and answers once the GCs' perf entries have been queued (they are made on a later tick).
 */
const script = `
  function busyLoop() { let x = 0; for (let i = 0; i < 2e5; i++) x += Math.sqrt(i); return x; }
  let kept = null;
  process.on('message', ({ cpuMs, gcs, objects = 0 }) => {
    for (let i = 0; i < gcs; i++) globalThis.gc();
    kept = Array.from({ length: objects }, (_, i) => ({ i, twice: 2 * i }));
    const start = process.cpuUsage();
    let calls = 0;
    const used = () => { const u = process.cpuUsage(start); return (u.user + u.system) / 1000; };
    while (used() < cpuMs) { busyLoop(); calls++; }
    setImmediate(() => setImmediate(() => process.send({ calls })));
  });
  process.send('ready');
`;
const child = spawn(process.execPath, ['--expose-gc', '-e', script], {
  env: { ...process.env, GWPROF_PROFILER_DIR: dir, NODE_OPTIONS: `--require ${preload}` },
  stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
});
const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
function work(cpuMs: number, gcs: number, objects = 0): Promise<{ calls: number }> {
  return new Promise((resolve) => {
    child.once('message', (reply) => resolve(reply as { calls: number }));
    child.send({ cpuMs, gcs, objects });
  });
}
afterAll(() => child.kill('SIGKILL'));

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
  startTime: number;
  endTime: number;
}

/**
 * One window: start, the work, stop. Returns the window as the test saw it: `inner` from start's
 * answer to stop's request (the profiler certainly ran all of it), `outer` from start's request to
 * stop's answer (it certainly ran within it), in ms on the same monotonic clock as the child's.
 */
async function profileWindow(client: ProfilerClient, file: string, cpuMs: number, gcs: number) {
  const t0 = performance.now();
  await client.start({ intervalUs: 1000, heapSamplingBytes: null });
  const t1 = performance.now();
  const { calls } = await work(cpuMs, gcs);
  const t2 = performance.now();
  const written = await client.stop({ cpuprofile: file, heapprofile: null });
  const t3 = performance.now();
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  return { written, profile, calls, inner: t2 - t1, outer: t3 - t0 };
}

/** Samples whose leaf is busyLoop. */
function busyLoopSamples(profile: Profile): number {
  const busy = new Set(profile.nodes.filter((n) => n.callFrame.functionName === 'busyLoop').map((n) => n.id));
  return profile.samples.filter((id) => busy.has(id)).length;
}

describe('in-process CPU profiler', () => {
  it('profiles exactly the window between start and stop, with Node’s own account of it, on one connection', async () => {
    await ready;
    const client = await ProfilerClient.connect(dir, child.pid!);
    // 200 ms of CPU in busyLoop and 3 forced GCs, all between start's answer and stop's request.
    const first = await profileWindow(client, path.join(dir, 'window.cpuprofile'), 200, 3);
    expect(first.calls).toBeGreaterThan(0);
    expect(first.written.samples).toBe(first.profile.samples.length);
    // The window is the one between start and stop: its length lies between what the test saw from
    // inside and from outside (1 ms for V8's µs timestamps and rounding).
    const profiledMs = (first.profile.endTime - first.profile.startTime) / 1000;
    expect(profiledMs).toBeGreaterThanOrEqual(first.inner - 1);
    expect(profiledMs).toBeLessThanOrEqual(first.outer + 1);
    const gc = first.written.nodeGc!;
    expect(gc.windowMs).toBeGreaterThanOrEqual(first.inner - 1);
    expect(gc.windowMs).toBeLessThanOrEqual(first.outer + 1);
    // Every forced GC in the window is counted, as a major one, and took time.
    expect(gc.count).toBeGreaterThanOrEqual(3);
    expect(Object.keys(gc.msByKind)).toContain(String(perfConstants.NODE_PERFORMANCE_GC_MAJOR));
    expect(gc.ms).toBeGreaterThan(0);
    // The main thread ran busyLoop for 200 ms of the process's CPU (the sampler thread's share is a
    // few %): its clock ticks (10 ms each, two readings) must hold at least half of that.
    expect(first.written.threadCpuMs!.main).toBeGreaterThanOrEqual(100);
    // 200 ms of busyLoop at a 1 ms interval is about 200 samples; 20 leaves room for a starved sampler.
    expect(busyLoopSamples(first.profile)).toBeGreaterThanOrEqual(20);

    // A second window on the same connection: a profile of its own, later than the first.
    const second = await profileWindow(client, path.join(dir, 'second.cpuprofile'), 50, 0);
    expect(second.written.samples).toBe(second.profile.samples.length);
    expect(second.profile.startTime).toBeGreaterThanOrEqual(first.profile.endTime);
    expect((second.profile.endTime - second.profile.startTime) / 1000).toBeGreaterThanOrEqual(second.inner - 1);
    expect((second.profile.endTime - second.profile.startTime) / 1000).toBeLessThanOrEqual(second.outer + 1);
    expect(busyLoopSamples(second.profile)).toBeGreaterThan(0);
    client.close();
  });

  it('reports the process, forces a full GC and writes a heap snapshot, for a soak', async () => {
    await ready;
    const client = await ProfilerClient.connect(dir, child.pid!);
    const stats = await client.stats();
    expect(stats.rssBytes).toBeGreaterThan(stats.heapUsedBytes);
    expect(stats.heapTotalBytes).toBeGreaterThanOrEqual(stats.heapUsedBytes);
    // stdin, stdout, stderr, the IPC channel and the control socket at least.
    expect(stats.openFds).toBeGreaterThanOrEqual(4);
    expect(stats.activeResources).toBeGreaterThanOrEqual(1);
    // Two forced GCs since the last sample are counted in its GC milliseconds.
    await work(1, 2);
    expect((await client.stats()).gcMs).toBeGreaterThan(0);
    const afterGc = await client.collectGarbage();
    expect(afterGc.heapUsedBytes).toBeGreaterThan(0);
    expect(afterGc.heapUsedBytes).toBeLessThanOrEqual(afterGc.heapTotalBytes);
    expect(afterGc.rssAnonBytes).toBeGreaterThan(0);
    expect(afterGc.rssAnonBytes).toBeLessThanOrEqual(afterGc.rssBytes);
    expect(afterGc.heapPhysicalBytes).toBeGreaterThan(0);
    const file = path.join(dir, 'soak.heapsnapshot');
    const { bytes, memoryAround } = await client.writeHeapSnapshot(file);
    expect(bytes).toBeGreaterThan(100_000);
    for (const reading of [memoryAround.before, memoryAround.after]) {
      expect(reading.heapTotalBytes).toBeGreaterThan(0);
      expect(reading.rssBytes).toBeGreaterThan(reading.heapTotalBytes);
    }
    expect(readFileSync(file, 'utf8').slice(0, 40)).toMatch(/^\{"snapshot":\{/);
    client.close();
  });

  it('switches inlining off and on, and samples allocations alone into a heap profile', async () => {
    await ready;
    const client = await ProfilerClient.connect(dir, child.pid!);
    const off = await client.setInlining(false);
    expect(off.ms).toBeGreaterThanOrEqual(0);
    await client.startHeapSampling(16_384);
    // 100,000 small objects: several MB, hundreds of samples at one per 16 kB.
    await work(1, 0, 100_000);
    const file = path.join(dir, 'alone.heapprofile');
    const { heapSamples } = await client.stopHeapSampling(file);
    expect(heapSamples).toBeGreaterThan(50);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { head: { children: unknown[] } }).head.children.length).toBeGreaterThan(0);
    expect((await client.setInlining(true)).ms).toBeGreaterThanOrEqual(0);
    // Stopping what was not started is an error with its reason, not a hang.
    await expect(client.stopHeapSampling(file)).rejects.toThrow(/allocations were not being sampled/);
    client.close();
  });

  it("appends the preload to the user's NODE_OPTIONS", () => {
    expect(withProfilerPreload('--max-old-space-size=512')).toMatch(/^--max-old-space-size=512 --require .*preload\.cjs$/);
  });

  it('explains a process that did not load the preload', async () => {
    await expect(ProfilerClient.connect(dir, 999_999_999, 300)).rejects.toThrow(/did not load the profiler preload/);
  });
});
