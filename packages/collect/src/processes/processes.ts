/**
 * Child processes the harness owns. Each runs in its own process group (detached) so that
 * stopping it stops everything it started, and so a terminal's Ctrl-C reaches only the
 * harness, which then stops them in order. Their output goes, line by line, into a pino
 * JSON log in the run folder; the last lines are kept to explain a failed start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { pinnedCommand } from './isolation.js';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly exited: Promise<ExitInfo>;
  isRunning(): boolean;
  /** Last lines of its stdout and stderr, oldest first. */
  tail(): string[];
  /** Calls `listener` with each line it writes from now on, until the returned function is called. */
  onLine(listener: (line: string) => void): () => void;
  /** SIGTERM to the whole group, SIGKILL after the grace period. */
  stop(graceMs?: number): Promise<ExitInfo>;
  /**
   * A signal to the group leader only, then SIGKILL to the group after the grace period:
   * for wrappers (0x, clinic) that must stop their child themselves and write a report.
   */
  stopLeader(signal: NodeJS.Signals, graceMs: number): Promise<ExitInfo>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** The CPU set it runs on (taskset); null or absent: any. */
  cpus?: string | null;
  /** Output logged before the rest is only counted (default LOG_CAP_BYTES). */
  logCapBytes?: number;
}

const TAIL_LINES = 40;
/** A soak runs for days: a gateway that prints a line per request must not fill the disk. */
export const LOG_CAP_BYTES = 64 * 1024 * 1024;
// Colour codes make logs and error messages unreadable outside a terminal.
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

const liveRegistries = new Set<ProcessRegistry>();
let exitHookInstalled = false;

/**
 * Every process started and not yet stopped, so any exit path can stop them all. The orderly
 * path is stopAll(); if the harness dies of an uncaught error or process.exit() instead, an
 * 'exit' hook SIGKILLs what is left, so no gateway or subgraph outlives it.
 */
export class ProcessRegistry {
  private readonly running = new Set<ManagedProcess>();

  constructor() {
    liveRegistries.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const registry of liveRegistries) registry.killAllNow();
      });
    }
  }

  spawn(options: SpawnOptions): ManagedProcess {
    const managed = spawnManaged(options);
    this.running.add(managed);
    void managed.exited.then(() => this.running.delete(managed));
    return managed;
  }

  async stopAll(graceMs = 5000): Promise<void> {
    await Promise.all([...this.running].map((p) => p.stop(graceMs)));
  }

  /** Last-resort synchronous kill, for process 'exit' handlers. */
  killAllNow(): void {
    for (const p of this.running) {
      try {
        process.kill(-p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function signalLeader(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Logs a process's lines up to its cap, then counts them; says once that it stopped, and at the end how many it left out. */
function cappedLog(options: SpawnOptions): { line: (stream: 'stdout' | 'stderr', line: string) => void; close: () => void } {
  const cap = options.logCapBytes ?? LOG_CAP_BYTES;
  let logged = 0;
  let unlogged = 0;
  return {
    line(stream, line) {
      if (logged >= cap) {
        unlogged++;
        return;
      }
      options.logger.info({ stream }, line);
      logged += Buffer.byteLength(line) + 1;
      if (logged >= cap)
        options.logger.warn(
          { event: 'log-capped', capBytes: cap },
          `${options.name}'s output beyond ${cap} bytes is counted, not logged; its last ${TAIL_LINES} lines are kept for a crash report`,
        );
    },
    close() {
      if (unlogged > 0)
        options.logger.warn({ event: 'log-capped', unloggedLines: unlogged }, `${unlogged} more lines of ${options.name}'s output were not logged`);
    },
  };
}

export function spawnManaged(options: SpawnOptions): ManagedProcess {
  const { command, args } = pinnedCommand(options.cpus ?? null, options.command, options.args);
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tailLines: string[] = [];
  const lineListeners = new Set<(line: string) => void>();
  let running = true;

  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      options.logger.info({ event: 'exit', code, signal }, `${options.name} exited`);
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      running = false;
      tailLines.push(String(error));
      options.logger.error({ event: 'spawn-error', err: error }, `${options.name} could not start`);
      resolve({ code: null, signal: null });
    });
  });

  const log = cappedLog(options);
  child.once('close', () => log.close());
  for (const [stream, source] of [
    ['stdout', child.stdout],
    ['stderr', child.stderr],
  ] as const) {
    if (!source) continue;
    createInterface({ input: source }).on('line', (raw) => {
      const line = raw.replace(ANSI, '');
      tailLines.push(line);
      if (tailLines.length > TAIL_LINES) tailLines.shift();
      log.line(stream, line);
      for (const listener of lineListeners) listener(line);
    });
  }

  const pid = child.pid ?? -1;
  /** Sends the first signal, SIGKILLs the group after the grace period, and always at the end:
   * grandchildren that ignored the signal must not outlive their group leader. */
  const terminate = async (firstSignal: () => void, graceMs: number): Promise<ExitInfo> => {
    if (!running || pid <= 0) return exited;
    firstSignal();
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
    const info = await exited;
    clearTimeout(timer);
    signalGroup(pid, 'SIGKILL');
    return info;
  };
  options.logger.info({ event: 'spawn', pid, command: options.command, args: options.args }, `${options.name} started`);

  return {
    name: options.name,
    pid,
    exited,
    isRunning: () => running,
    tail: () => [...tailLines],
    onLine: (listener) => {
      lineListeners.add(listener);
      return () => lineListeners.delete(listener);
    },
    stop: (graceMs = 5000) => terminate(() => signalGroup(pid, 'SIGTERM'), graceMs),
    stopLeader: (signal: NodeJS.Signals, graceMs: number) => terminate(() => signalLeader(pid, signal), graceMs),
  };
}
