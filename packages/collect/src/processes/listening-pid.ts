/** Which process listens on a TCP port, and what waits to be accepted there, from /proc. */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** The listening sockets on `port` in /proc/net/tcp and tcp6: inode and accept-queue length. */
function listeningSockets(port: number): Array<{ inode: string; acceptQueue: number }> {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  const sockets: Array<{ inode: string; acceptQueue: number }> = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // fields: sl local_address rem_address st tx_queue:rx_queue … inode(9); 0A = LISTEN
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${portHex}`) && fields[3] === '0A' && fields[9]) {
        sockets.push({ inode: fields[9], acceptQueue: parseInt(fields[4]?.split(':')[1] ?? '0', 16) });
      }
    }
  }
  return sockets;
}

/** Whether anything listens on `port` (false also where /proc cannot say). */
export function hasListener(port: number): boolean {
  return listeningSockets(port).length > 0;
}

/** The pid among `candidates` that owns the listening socket on `port`, or null. */
export function pidListeningOn(port: number, candidates: number[]): number | null {
  const inodes = new Set(listeningSockets(port).map((s) => s.inode));
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
 * listening socket): handshakes done, not yet accepted by the server.
 */
export function acceptQueueLength(port: number): number {
  return listeningSockets(port).reduce((sum, s) => sum + s.acceptQueue, 0);
}
