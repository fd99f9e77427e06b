/** The in-process profiler end to end: a real Node process with the preload, driven over its socket. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../paths.js';
import { ProfilerClient, withProfilerPreload } from './controller.js';

const preload = path.join(repoRoot, 'packages/collect/dist/profiler/preload.cjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-profiler-'));
const script = `
  let calls = 0;
  function busyLoop() { let x = 0; for (let i = 0; i < 2e5; i++) x += Math.sqrt(i); if (++calls % 50 === 0) process.stdout.write('.'); return x; }
  busyLoop();
  process.stdout.write('running\\n');
  setInterval(busyLoop, 1);
`;
const child = spawn(process.execPath, ['-e', script], {
  env: { ...process.env, GWPROF_PROFILER_DIR: dir, NODE_OPTIONS: `--require ${preload}` },
  stdio: ['ignore', 'pipe', 'ignore'],
});
// On a loaded machine the child may still be starting when the socket is up: profile it once its loop runs.
const running = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
/** Resolves once the child has run busyLoop another `calls` times: on a loaded machine 600 ms may hold none. */
function busyCalls(calls: number): Promise<void> {
  let dots = 0;
  return new Promise((resolve) => {
    const count = (chunk: Buffer) => {
      dots += chunk.toString().split('.').length - 1;
      if (dots * 50 >= calls) {
        child.stdout!.off('data', count);
        resolve();
      }
    };
    child.stdout!.on('data', count);
  });
}
afterAll(() => child.kill('SIGKILL'));

describe('in-process CPU profiler', () => {
  it('profiles exactly the window between start and stop and writes a .cpuprofile', async () => {
    await running;
    const client = await ProfilerClient.connect(dir, child.pid!);
    await client.start(1000);
    await Promise.all([new Promise((r) => setTimeout(r, 600)), busyCalls(100)]);
    const file = path.join(dir, 'window.cpuprofile');
    const { samples, nodeGc, threadCpuMs } = await client.stop(file);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as {
      nodes: Array<{ callFrame: { functionName: string } }>;
      samples: number[];
      startTime: number;
      endTime: number;
    };
    expect(samples).toBe(profile.samples.length);
    // Node's own account of the window comes back with the profile.
    expect(nodeGc!.windowMs).toBeGreaterThan(500);
    expect(nodeGc!.count).toBeGreaterThanOrEqual(0);
    expect(threadCpuMs!.main).toBeGreaterThan(0);
    expect(samples).toBeGreaterThan(50);
    expect((profile.endTime - profile.startTime) / 1000).toBeGreaterThan(500);
    expect((profile.endTime - profile.startTime) / 1000).toBeLessThan(2000);
    expect(profile.nodes.some((n) => n.callFrame.functionName === 'busyLoop')).toBe(true);
    // A second window works on the same connection.
    await client.start(1000);
    await new Promise((r) => setTimeout(r, 200));
    expect((await client.stop(path.join(dir, 'second.cpuprofile'))).samples).toBeGreaterThan(50);
    client.close();
  });

  it("appends the preload to the user's NODE_OPTIONS", () => {
    expect(withProfilerPreload('--max-old-space-size=512')).toMatch(/^--max-old-space-size=512 --require .*preload\.cjs$/);
  });

  it('explains a process that did not load the preload', async () => {
    await expect(ProfilerClient.connect(dir, 999_999_999, 300)).rejects.toThrow(/did not load the profiler preload/);
  });
});
