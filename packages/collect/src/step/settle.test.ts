/** The wait before a step: real processes that are busy, then idle (or busy for good). */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { settleGateway } from './settle.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/**
 * A process that spins on two threads for `busyMs` (so other load cannot push it near idle), then
 * sleeps; resolves with its pid once it says it spins, so a slow start is not read as idle.
 */
function busyThenIdle(busyMs: number): Promise<number> {
  const spin = `const end = Date.now() + ${busyMs}; while (Date.now() < end) {}`;
  const script = `new (require('node:worker_threads').Worker)(${JSON.stringify(spin)}, { eval: true }); process.stdout.write('busy\\n'); ${spin} setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return new Promise((resolve) => child.stdout!.once('data', () => resolve(child.pid!)));
}

/**
 * A process that spins on two threads for good: up to 200% of a core, so other load cannot push it
 * near idle; resolves with its pid once it says it spins (a Node start slowed by a loaded machine
 * would otherwise read as idle).
 */
function busyForever(): Promise<number> {
  const script = `new (require('node:worker_threads').Worker)('for (;;) {}', { eval: true }); process.stdout.write('busy\\n'); for (;;) {}`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return new Promise((resolve) => child.stdout!.once('data', () => resolve(child.pid!)));
}

/** What settleGateway calls idle: below this % of a core (settle.ts, IDLE_PERCENT). */
const IDLE_PERCENT = 10;

describe('settleGateway', () => {
  it('waits until the gateway has worked off its backlog, and says how long that took', async () => {
    const pid = await busyThenIdle(3_000);
    const settled = await settleGateway(pid, 15, new AbortController().signal);
    expect(settled.settled).toBe(true);
    // Busy for 3 s from when it said so, then two quiet readings: at least 2 s however slow the machine
    // (the second is the most its word could take to reach us and the first reading to come).
    expect(settled.seconds).toBeGreaterThanOrEqual(2);
    expect(settled.cpuPercent!).toBeLessThan(IDLE_PERCENT);
  });

  it('gives up at its bound when the gateway stays busy, and says so', async () => {
    const pid = await busyForever();
    const settled = await settleGateway(pid, 1.5, new AbortController().signal);
    expect(settled.settled).toBe(false);
    // It stops at the first reading (every 250 ms) past its bound; a wait that ignored the bound would
    // run into the test's 30 s timeout, so 5 s apart is a difference no load can blur.
    expect(settled.seconds).toBeGreaterThanOrEqual(1.5);
    expect(settled.seconds).toBeLessThan(1.5 + 5);
    // The reading it reports is the busy one. Two spinning threads get at least a third of a core
    // each on 2 cores shared with four other CPU hogs: 60% or more, far from the 10% it waits for.
    expect(settled.cpuPercent!).toBeGreaterThanOrEqual(IDLE_PERCENT);
  });

  it('does not wait for a gateway it cannot see', async () => {
    expect(await settleGateway(null, 30, new AbortController().signal)).toMatchObject({ seconds: 0, settled: true, cpuPercent: null });
  });
});

describe('acceptQueueLength', () => {
  it('counts connections the kernel completed but a busy server has not accepted yet', async () => {
    const { acceptQueueLength } = await import('../processes/listening-pid.js');
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
