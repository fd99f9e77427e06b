import { describe, expect, it } from 'vitest';
import { planCpuSets, pinnedCommand } from './isolation.js';
import { fdsNeeded } from './fd-limit.js';

describe('CPU sets', () => {
  it('gives the gateway its own core by default and everything else the rest', () => {
    expect(planCpuSets(undefined, 2)).toEqual({ gateway: '1', others: '0' });
    expect(planCpuSets(undefined, 8)).toEqual({ gateway: '7', others: '0,1,2,3,4,5,6' });
    expect(planCpuSets(2, 8)).toEqual({ gateway: '6,7', others: '0,1,2,3,4,5' });
  });

  it('shares every core when the gateway asks for all of them, and does not pin on one core', () => {
    expect(planCpuSets(2, 2)).toEqual({ gateway: '0,1', others: '0,1' });
    expect(planCpuSets(undefined, 1)).toEqual({ gateway: null, others: null });
  });

  it('refuses impossible requests with a message naming the flag', () => {
    expect(() => planCpuSets(3, 2)).toThrow(/--gateway-cpus 3 exceeds the 2 cores/);
    expect(() => planCpuSets(1.5, 2)).toThrow(/--gateway-cpus must be a whole number/);
  });

  it('wraps a command in taskset only when there is a CPU set', () => {
    expect(pinnedCommand('1', 'node', ['a.js'])).toEqual({ command: 'taskset', args: ['-c', '1', 'node', 'a.js'] });
    expect(pinnedCommand(null, 'node', ['a.js'])).toEqual({ command: 'node', args: ['a.js'] });
  });
});

describe('open files', () => {
  it('needs two descriptors per connection plus headroom', () => {
    expect(fdsNeeded(1000)).toBe(2256);
  });
});

describe('gateway memory cap', () => {
  it('caps a process in a memory cgroup (or falls back to the heap flag and says so)', async () => {
    const { createMemoryCap } = await import('./isolation.js');
    const { spawn } = await import('node:child_process');
    const cap = createMemoryCap(80, `gwprof-test-${process.pid}`);
    try {
      if (!cap.method.startsWith('cgroup')) {
        expect(cap.method).toMatch(/heap flag/);
        expect(cap.nodeOptions).toBe('--max-old-space-size=60');
        return;
      }
      expect(cap.nodeOptions).toBeNull();
      // Off-heap memory (Buffers) that the heap flag would not limit: only the cgroup stops it.
      const grow = 'const a = []; setInterval(() => a.push(Buffer.alloc(8e6, 1)), 5);';
      const { command, args } = cap.wrap(process.execPath, ['-e', grow]);
      const child = spawn(command, args, { stdio: 'ignore' });
      const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      expect(exit).toBe('SIGKILL');
    } finally {
      cap.release();
    }
  }, 20_000);

  it('refuses a cap too small to start a gateway', async () => {
    const { createMemoryCap } = await import('./isolation.js');
    expect(() => createMemoryCap(10, 'x')).toThrow(/--gateway-memory must be at least 64/);
  });
});
