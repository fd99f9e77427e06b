/**
 * Before any test file: start building k6 (scripts/ensure-k6.mjs) and the native subgraphs
 * (scripts/ensure-native-subgraphs.mjs), each a no-op when built, in the background at the lowest
 * CPU priority. On a fresh clone the builds take minutes of CPU that the end-to-end tests leave idle
 * between their loads; the tests that need them wait for them (the k6 script's lock, cargo's lock on
 * its target folder) instead of starting second builds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const scripts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'scripts');
const builds: ChildProcess[] = [];

export function setup(): void {
  for (const script of ['ensure-k6.mjs', 'ensure-native-subgraphs.mjs']) {
    const build = spawn('nice', ['-n', '19', process.execPath, path.join(scripts, script)], { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
    // Without `nice` (or Go, or cargo) the test that needs it builds it itself, or says why it cannot.
    build.on('error', () => undefined);
    if (build.pid !== undefined) lowestGroupPriority(build.pid);
    builds.push(build);
  }
}

/**
 * A detached child leads a session of its own, and with Linux's autogroup scheduling a session
 * competes with the tests' session as an equal whatever its processes' nice values: a `nice -n 19`
 * build made the unit tests twice as slow. The session's own nice value makes it yield to them.
 */
function lowestGroupPriority(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, '19');
  } catch {
    // No autogroup (another OS, or a kernel without it): the processes' nice value is what counts there.
  }
}

/** A build still running when the tests end (its test was filtered out) is stopped with its children. */
export function teardown(): void {
  for (const build of builds) {
    if (build.pid === undefined || build.exitCode !== null || build.signalCode !== null) continue;
    try {
      process.kill(-build.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}
