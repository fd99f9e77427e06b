/** A child in a process group of its own, stopped whole when the run is: a build's compilers are ours too. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** Spawns `command` as a group leader; on `signal`'s abort the whole group gets SIGTERM. */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions, signal?: AbortSignal): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  signal?.addEventListener('abort', stop, { once: true });
  const forget = () => signal?.removeEventListener('abort', stop);
  child.once('exit', forget);
  child.once('error', forget);
  return child;
}
