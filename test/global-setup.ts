/**
 * Before any test file: start building k6 (scripts/ensure-k6.mjs, a no-op when it is built) in the
 * background at the lowest CPU priority. On a fresh clone the build takes a minute or more of CPU
 * that the end-to-end tests leave idle between their loads; the k6 test waits for it through the
 * script's lock instead of starting a second build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'ensure-k6.mjs');
let build: ChildProcess | null = null;

export function setup(): void {
  build = spawn('nice', ['-n', '19', process.execPath, script], { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  // Without `nice` (or Go) the k6 test builds it itself, or says why it cannot.
  build.on('error', () => undefined);
}

/** A build still running when the tests end (the k6 test was filtered out) is stopped with its go children. */
export function teardown(): void {
  if (build?.pid === undefined || build.exitCode !== null || build.signalCode !== null) return;
  try {
    process.kill(-build.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
