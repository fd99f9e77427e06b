/** The wait before a step: real processes that are busy, then idle (or busy for good). */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { settleGateway } from './settle.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A process that burns a core for `busyMs` (forever with Infinity), then sleeps. */
function busyThenIdle(busyMs: number): number {
  const script = `const end = Date.now() + ${Number.isFinite(busyMs) ? busyMs : 1e12}; while (Date.now() < end) {} setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

describe('settleGateway', () => {
  it('waits until the gateway has worked off its backlog, and says how long that took', async () => {
    const pid = busyThenIdle(2_000);
    const settled = await settleGateway(pid, 15, new AbortController().signal);
    expect(settled.settled).toBe(true);
    expect(settled.seconds).toBeGreaterThanOrEqual(2);
    expect(settled.cpuPercent!).toBeLessThan(10);
  });

  it('gives up at its bound when the gateway stays busy, and says so', async () => {
    const pid = busyThenIdle(Infinity);
    const settled = await settleGateway(pid, 1.5, new AbortController().signal);
    expect(settled.settled).toBe(false);
    expect(settled.seconds).toBeLessThan(3);
    expect(settled.cpuPercent!).toBeGreaterThan(30);
  });

  it('does not wait for a gateway it cannot see', async () => {
    expect(await settleGateway(null, 30, new AbortController().signal)).toEqual({ seconds: 0, settled: true, cpuPercent: null });
  });
});

describe('acceptQueueLength', () => {
  it('counts connections the kernel completed but a busy server has not accepted yet', async () => {
    const { acceptQueueLength } = await import('../listening-pid.js');
    const net = await import('node:net');
    const port = 4891;
    // A server that listens, then blocks its event loop: handshakes complete, nothing is accepted.
    const script = `require('node:net').createServer().listen(${port}, '127.0.0.1', () => { process.send('ready'); const end = Date.now() + 20000; while (Date.now() < end) {} });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    children.push(child);
    await new Promise((resolve) => child.once('message', resolve));
    expect(acceptQueueLength(port)).toBe(0);
    const sockets = Array.from({ length: 3 }, () => net.connect(port, '127.0.0.1'));
    await Promise.all(sockets.map((s) => new Promise((resolve) => s.once('connect', resolve))));
    expect(acceptQueueLength(port)).toBe(3);
    for (const s of sockets) s.destroy();
  });
});
