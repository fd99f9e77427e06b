/** Which process listens on a TCP port: /proc/net/tcp gives the socket inode, /proc/<pid>/fd its owner. */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // fields: sl local_address rem_address st ... inode(9)
      if (fields[1]?.endsWith(`:${portHex}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The pid among `candidates` that owns the listening socket on `port`, or null. */
export function pidListeningOn(port: number, candidates: number[]): number | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  for (const pid of candidates) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match && inodes.has(match[1]!)) return pid;
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return null;
}

/**
 * Connections waiting in the accept queue of whatever listens on `port` (the rx_queue of a
 * listening socket in /proc/net/tcp): handshakes done, not yet accepted by the server.
 */
export function acceptQueueLength(port: number): number {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  let waiting = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${portHex}`) && fields[3] === '0A') waiting += parseInt(fields[4]?.split(':')[1] ?? '0', 16);
    }
  }
  return waiting;
}
