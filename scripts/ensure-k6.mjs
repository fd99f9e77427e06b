// k6 for `sweep --engine k6` and the tests that run a real k6: built from its Go module (no binary
// downloads are possible here) into .tools/bin/k6, once; Go's module and build caches make a
// rebuild quick. Prints the binary's path on stdout, and how long the build took on stderr.
//   node scripts/ensure-k6.mjs
// One build at a time: a process that finds another building (the tests start one in the background
// when they begin) waits for it instead of building the same binary twice.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const K6_MODULE = 'go.k6.io/k6@v1.8.1';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const k6Path = path.join(root, '.tools', 'bin', 'k6');
const lockPath = path.join(root, '.tools', 'k6-build.lock');
/** Longer than any build seen (about 100 s): a lock this old belongs to a process that died and whose pid was reused. */
const LOCK_STALE_MS = 15 * 60_000;

/** The k6 binary, built first when missing; throws with what to do when Go is missing. */
export function ensureK6() {
  if (existsSync(k6Path)) return k6Path;
  while (!takeLock()) {
    sleepMs(500);
    if (existsSync(k6Path)) return k6Path;
  }
  try {
    if (!existsSync(k6Path)) build();
  } finally {
    rmSync(lockPath, { force: true });
  }
  return k6Path;
}

/** The lock is a file holding the builder's pid; one left by a process that died, or too old, is taken over. */
function takeLock() {
  mkdirSync(path.dirname(lockPath), { recursive: true });
  try {
    writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    const holder = Number(readFileSync(lockPath, 'utf8'));
    const fresh = Date.now() - statSync(lockPath).mtimeMs < LOCK_STALE_MS;
    if (holder > 0 && isAlive(holder) && fresh) return false;
    rmSync(lockPath, { force: true });
    return takeLock();
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function build() {
  const started = Date.now();
  // Go's default caches live under HOME; a bare environment (a CI runner) may not set it.
  const caches = process.env.HOME ? {} : { GOPATH: path.join(root, '.tools', 'go'), GOCACHE: path.join(root, '.tools', 'go-build') };
  const env = { ...process.env, ...caches, GOBIN: path.dirname(k6Path), CGO_ENABLED: '0' };
  // Go on PATH, or where its official archive installs it.
  const go = ['go', '/usr/local/go/bin/go'].find((candidate) => {
    try {
      execFileSync(candidate, ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!go) throw new Error(`could not build k6 (go install ${K6_MODULE}): Go is neither on PATH nor in /usr/local/go`);
  try {
    execFileSync(go, ['install', K6_MODULE], { stdio: ['ignore', 'ignore', 'inherit'], env });
  } catch (error) {
    throw new Error(`could not build k6 (go install ${K6_MODULE}): ${error.message}`);
  }
  console.error(`built k6 (${K6_MODULE}) in ${((Date.now() - started) / 1000).toFixed(0)} s: ${k6Path}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureK6());
