// Runs the real `gwprof compare` CLI, one comparison at a time, and sizes CPU burns for it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './stats.mjs';

// On the shared development machine every measurement holds this lock; elsewhere there is none.
const lockArgs = existsSync('/work/load.lock') ? ['flock', '/work/load.lock'] : [];

/** A driver for one gateway: `compare` runs the CLI, `calibrateBurn` sizes a burn from a probe. */
export function createDriver({ root, gateway, window, log }) {
  // Made on the first comparison, so that commands which only read data leave nothing behind.
  let workDir = null;
  const work = () => (workDir ??= mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-compare-')));
  const burnPreload = path.join(root, 'scripts', 'burn-cpu-per-request.cjs');

  /** One `gwprof compare`, its compare.json and how long it took. */
  function compare(label, flags, candidateEnv = {}) {
    const json = path.join(work(), `${label}.json`);
    const args = [
      path.join(root, 'packages/cli/dist/bin.js'), 'compare', '--baseline', gateway, '--candidate', gateway,
      '--out', work(), '--run-id', label, '--json', json, '--no-color', ...flags,
      ...Object.entries(candidateEnv).flatMap(([k, v]) => ['--candidate-env', `${k}=${v}`]),
    ];
    const [cmd, argv] = lockArgs.length ? [lockArgs[0], [...lockArgs.slice(1), process.execPath, ...args]] : [process.execPath, args];
    const started = Date.now();
    const child = spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
    const wallMinutes = (Date.now() - started) / 60_000;
    let result = null;
    try {
      result = JSON.parse(readFileSync(json, 'utf8'));
    } catch {
      log(`${label}: no compare.json (exit ${child.status}): ${child.stderr.slice(-500)}`);
    }
    // The comparison's own clock: the wall time above also holds any wait for the lock.
    const ownMinutes = result?.startedAt && result?.finishedAt ? (Date.parse(result.finishedAt) - Date.parse(result.startedAt)) / 60_000 : null;
    return { result, exitCode: child.status, minutes: ownMinutes ?? wallMinutes };
  }

  /**
   * Calibrates a burn of `percent` % of the baseline's CPU per request, in µs. Profiles stay on, as in
   * the comparisons: the profiler adds to the CPU per request, and a burn sized on the unprofiled cost
   * is a smaller share of what the comparison measures.
   */
  function calibrateBurn(percent) {
    const probe = compare(`calibrate-${Date.now()}`, ['--window', String(window), '--min-blocks', '100000', '--budget', '3']);
    const cpu = median(probe.result.windows.map((w) => w.step.gateway.cpuMsPerOkRequest).filter((v) => v > 0));
    return { cpuMsPerRequest: cpu, burnUs: Math.round(cpu * 1000 * percent / 100) };
  }

  /** The candidate's environment for a burn of `burnUs` µs per request; none for 0. */
  const burnEnv = (burnUs) => (burnUs > 0 ? { NODE_OPTIONS: `--require ${burnPreload}`, GWPROF_BURN_US: String(burnUs) } : {});

  return { compare, calibrateBurn, burnEnv };
}

/** The burn of a run kind ("+10%") from a calibration of 100%, in µs; 0 for A/A. */
export function burnOfKind(calibration, kind) {
  const percent = Number(/^\+(\d+)%$/.exec(kind)?.[1] ?? 0);
  return calibration && percent ? Math.round((calibration.burnUs * percent) / 100) : 0;
}

/** Flags of a recording: the stopping rule off, so it runs for the whole budget. */
export function recordFlags(window, minutes, blocksPerEpoch) {
  return ['--window', String(window), '--min-blocks', '100000', '--budget', String(minutes), '--blocks-per-epoch', String(blocksPerEpoch)];
}

/** The windows a recording keeps: enough to replay the procedure and to study noise. */
export function slimWindows(result) {
  return result.windows.map((w) => ({
    epoch: w.epoch, block: w.block, position: w.position, side: w.side, level: w.step.concurrency,
    value: w.step.gateway.cpuMsPerOkRequest, ok: w.step.requests.ok, rps: w.step.rps,
    gcMs: w.step.profile?.nodeGc?.ms ?? null, majorGcMs: w.step.profile?.nodeGc?.msByKind?.['4'] ?? null,
  }));
}
