/**
 * File-descriptor limit. The seed report's client died of "Too many open files" at 2000
 * connections: check before starting, raise the soft limit to the hard one when needed
 * (prlimit on our own pid; children inherit it), refuse when even the hard limit is too low.
 */
import { execFileSync } from 'node:child_process';
import { GwprofError } from '@gwprof/results';

export interface FdLimit {
  soft: number;
  hard: number;
}

export function readFdLimit(pid = process.pid): FdLimit {
  const out = execFileSync('prlimit', ['--pid', String(pid), '--nofile', '--raw', '--noheadings', '--output', 'SOFT,HARD'], {
    encoding: 'utf8',
  }).trim();
  const [soft, hard] = out.split(/\s+/).map((v) => (v === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(v)));
  return { soft: soft ?? 0, hard: hard ?? 0 };
}

/**
 * Descriptors needed by the busiest process: the load generator holds one socket per
 * connection, and so does the gateway (plus its subgraph connections); keep headroom.
 */
export function fdsNeeded(maxConcurrency: number): number {
  return maxConcurrency * 2 + 256;
}

export function ensureFdLimit(maxConcurrency: number): FdLimit {
  const needed = fdsNeeded(maxConcurrency);
  const current = readFdLimit();
  if (current.soft >= needed) return current;
  if (current.hard < needed) {
    throw new GwprofError(
      `concurrency ${maxConcurrency} needs about ${needed} open files but the hard limit is ${current.hard}: raise it (ulimit -Hn ${needed}, as root) or lower --concurrency`,
    );
  }
  execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${current.hard}:${current.hard}`]);
  const raised = readFdLimit();
  if (raised.soft < needed) {
    throw new GwprofError(`could not raise the open-file limit to ${needed} (it is ${raised.soft}): run 'ulimit -n ${needed}' first`);
  }
  return raised;
}
