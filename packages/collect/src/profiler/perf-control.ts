/**
 * perf record's control FIFOs (`--control fifo:CTL,ACK`, perf 5.10 and later): perf starts with its
 * events off (`-D -1`), and `enable` / `disable` written to CTL switch them, each acknowledged on ACK
 * once done. So sampling starts when the step's window opens and stops when it closes, instead of
 * when perf happens to be ready after it was spawned (170–280 ms here, longer on a busy machine).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import net from 'node:net';

/** perf versions from 5.10 take `--control`; an older perf is started enabled, as before. */
export function perfTakesControl(version: string | null): boolean {
  const match = /(\d+)\.(\d+)/.exec(version ?? '');
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 5 || (major === 5 && minor >= 10);
}

export class PerfControl {
  private readonly controlFd: number;
  private readonly ack: net.Socket;
  private replies = '';
  private waiting: (() => void) | null = null;

  /** Makes the two FIFOs; perf is then started with `args()`. */
  constructor(private readonly base: string) {
    for (const fifo of [this.controlPath, this.ackPath]) {
      rmSync(fifo, { force: true });
      execFileSync('mkfifo', ['-m', '600', fifo]);
    }
    // Read and write: opening a FIFO so does not wait for perf to open its end.
    this.controlFd = openSync(this.controlPath, 'r+');
    this.ack = new net.Socket({ fd: openSync(this.ackPath, 'r+'), readable: true, writable: false });
    this.ack.setEncoding('utf8');
    this.ack.unref();
    this.ack.on('data', (chunk: string) => {
      this.replies += chunk;
      if (this.replies.includes('\n')) this.waiting?.();
    });
  }

  private get controlPath(): string {
    return `${this.base}.ctl`;
  }

  private get ackPath(): string {
    return `${this.base}.ack`;
  }

  /** perf's arguments: events off until enabled, and the two FIFOs. */
  args(): string[] {
    return ['-D', '-1', '--control', `fifo:${this.controlPath},${this.ackPath}`];
  }

  /** Sends a command and waits for perf's acknowledgement (perf reads it once it has set up its events). */
  send(command: 'enable' | 'disable'): Promise<void> {
    this.replies = '';
    const acknowledged = new Promise<void>((resolve) => {
      this.waiting = () => {
        this.waiting = null;
        resolve();
      };
    });
    writeSync(this.controlFd, `${command}\n`);
    return acknowledged;
  }

  close(): void {
    this.waiting = null;
    this.ack.destroy();
    closeSync(this.controlFd);
    for (const fifo of [this.controlPath, this.ackPath]) rmSync(fifo, { force: true });
  }
}
