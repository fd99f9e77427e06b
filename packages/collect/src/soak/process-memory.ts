/**
 * A native gateway's memory as /proc shows it: RSS and its anonymous part (RssAnon), summed over
 * its processes. No forced collection exists for a native process, so this is what the process and
 * its allocator hold, freed blocks the allocator keeps included.
 */
import { readFileSync } from 'node:fs';

/** RSS and RssAnon of one process from /proc/<pid>/status, bytes; null once it has exited. */
export function readStatusMemory(status: string): { rssBytes: number; rssAnonBytes: number | null } | null {
  const kib = (field: string): number | null => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : null;
  };
  const rssBytes = kib('VmRSS');
  // A zombie or a kernel thread has no VmRSS line: nothing resident of its own.
  return rssBytes === null ? null : { rssBytes, rssAnonBytes: kib('RssAnon') };
}

/** Summed over the live processes; RssAnon null when a kernel without it (before 4.5) was read. */
export function processMemory(pids: readonly number[]): { rssBytes: number; rssAnonBytes: number | null } {
  let rssBytes = 0;
  let rssAnonBytes: number | null = 0;
  for (const pid of pids) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue; // exited
    }
    const memory = readStatusMemory(status);
    if (!memory) continue;
    rssBytes += memory.rssBytes;
    rssAnonBytes = rssAnonBytes === null || memory.rssAnonBytes === null ? null : rssAnonBytes + memory.rssAnonBytes;
  }
  return { rssBytes, rssAnonBytes };
}
