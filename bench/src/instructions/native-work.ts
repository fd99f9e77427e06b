/**
 * The planted work of a native gateway (fixtures/native-work): the preload library built with the
 * system's C compiler, and the ground truth of its loop, measured apart from any gateway: a driver
 * under callgrind calls the loop R1 and R2 times with n iterations, as the preload does once per
 * response, and the totals' difference over (R2 − R1)·n is the cost of one iteration.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callgrindTotal } from '@gwprof/analysis';

export interface NativeWork {
  library: string;
  driver: string;
}

export interface NativeLoopCost {
  date: string;
  kind: 'native';
  iterationsPerCall: number;
  calls: [number, number];
  totals: [number, number];
  instructionsPerIteration: number;
  compiler: string;
}

/** Builds the preload and its driver into `dir` (-O2, as a release build would). */
export function buildNativeWork(root: string, dir = path.join(os.tmpdir(), 'gwprof-native-work')): NativeWork {
  const source = path.join(root, 'fixtures', 'native-work');
  mkdirSync(dir, { recursive: true });
  const library = path.join(dir, 'libwork-per-response.so');
  const driver = path.join(dir, 'loop-driver');
  execFileSync('cc', ['-O2', '-shared', '-fPIC', '-o', library, path.join(source, 'work-per-response.c'), '-ldl']);
  execFileSync('cc', ['-O2', '-o', driver, path.join(source, 'loop-driver.c'), library, `-Wl,-rpath,${dir}`]);
  return { library, driver };
}

function totalOf(driver: string, calls: number, iterations: number): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-native-loop-'));
  execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${path.join(dir, 'out')}`, driver, String(calls), String(iterations)], {
    stdio: 'ignore',
  });
  const file = readdirSync(dir).find((f) => f.startsWith('out'))!;
  const total = callgrindTotal(readFileSync(path.join(dir, file), 'utf8'));
  if (total === null) throw new Error(`no total in ${file}`);
  return total;
}

export function measureNativeLoopCost(root: string, iterationsPerCall = 20_000, calls: [number, number] = [50, 250]): NativeLoopCost {
  const { driver } = buildNativeWork(root);
  const totals: [number, number] = [totalOf(driver, calls[0], iterationsPerCall), totalOf(driver, calls[1], iterationsPerCall)];
  return {
    date: new Date().toISOString(),
    kind: 'native',
    iterationsPerCall,
    calls,
    totals,
    instructionsPerIteration: (totals[1] - totals[0]) / ((calls[1] - calls[0]) * iterationsPerCall),
    compiler: execFileSync('cc', ['--version'], { encoding: 'utf8' }).split('\n')[0]!,
  };
}
