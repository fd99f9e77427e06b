/**
 * valgrind's callgrind around a gateway process, and its control: counting is off from the start
 * (--instr-atstart=no) and switched on by `callgrind_control` only for counted batches; each batch
 * is zeroed before and dumped after, so one dump file holds one batch's counts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { GwprofError } from '@gwprof/results';
import { callgrindTotal } from '@gwprof/analysis';

const run = promisify(execFile);

/**
 * The program runs uncounted until told; JIT code is rewritten in place, so valgrind must check
 * every non-file mapping for self-modifying code; vgdb answers callgrind_control.
 */
export const CALLGRIND_ARGS = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', '--vgdb=yes'] as const;

/** valgrind's version, or null when it is not on PATH. */
export function valgrindVersion(): string | null {
  try {
    return execFileSync('valgrind', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/**
 * valgrind, installed with apt-get when it is missing and we are root on Debian (as Chromium is for
 * the tests); otherwise one line saying how to get it.
 */
export function ensureValgrind(onProgress: (line: string, final: boolean) => void, need = '--measure instructions'): string {
  const found = valgrindVersion();
  if (found) return found;
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) throw new GwprofError(`${need} needs valgrind: install it, e.g. \`apt-get install valgrind\`, and run again`);
  onProgress('installing valgrind with apt-get (once)…', false);
  try {
    execFileSync('apt-get', ['install', '-y', '-q', 'valgrind'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch {
    try {
      execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
      execFileSync('apt-get', ['install', '-y', '-q', 'valgrind'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } catch (error) {
      throw new GwprofError(`${need} needs valgrind, and apt-get could not install it (${(error as Error).message.split('\n')[0]}): install it and run again`);
    }
  }
  const installed = valgrindVersion();
  if (!installed) throw new GwprofError(`${need} needs valgrind: apt-get ran but valgrind is still not on PATH`);
  return installed;
}

async function control(pid: number, args: string[]): Promise<void> {
  try {
    await run('callgrind_control', [...args, String(pid)], { timeout: 120_000 });
  } catch (error) {
    throw new Error(`callgrind_control ${args.join(' ')} ${pid} failed: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** Zeroes the counts and switches counting on. */
export async function startCounting(pid: number): Promise<void> {
  await control(pid, ['-z']);
  await control(pid, ['-i', 'on']);
}

/**
 * Switches counting off and dumps the batch; returns the dump file and its total. `outBase` is the
 * --callgrind-out-file the process was started with, with %p resolved.
 */
export async function stopCounting(pid: number, outBase: string, label: string): Promise<{ file: string; total: number }> {
  await control(pid, ['-i', 'off']);
  const before = new Set(dumpsOf(outBase));
  await control(pid, [`--dump=${label}`]);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const fresh = dumpsOf(outBase).filter((f) => !before.has(f));
    for (const file of fresh) {
      const total = totalOfDump(file);
      if (total !== null) return { file, total };
    }
    if (Date.now() > deadline) throw new Error(`callgrind wrote no dump for ${label} (pid ${pid}) within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A dump's total, from its last lines: callgrind writes `totals:` at the end, and a dump with deep
 * caller contexts runs to a gigabyte, more than one string can hold.
 */
export function totalOfDump(file: string): number | null {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return callgrindTotal(buffer.toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/** The numbered dumps written so far for a process (`<base>.1`, `<base>.2`, …). */
function dumpsOf(outBase: string): string[] {
  const dir = path.dirname(outBase);
  const prefix = `${path.basename(outBase)}.`;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && /^\d+$/.test(f.slice(prefix.length)))
    .map((f) => path.join(dir, f));
}
