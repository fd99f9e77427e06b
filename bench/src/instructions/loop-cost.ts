/**
 * The ground truth of a planted amount of work: how many instructions one iteration of
 * fixtures/work-per-request.cjs's loop costs under the V8 flags a comparison by instructions
 * gives Node gateways. Two whole processes under callgrind run the loop in R1 and R2 calls of n
 * iterations each, as a gateway does once per request; their totals' difference over
 * (R2 − R1)·n is the cost of an iteration, call included, at the tier the calls reach.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callgrindTotal } from '@gwprof/analysis';
import { DEFAULTS } from '@gwprof/collect';

export interface LoopCost {
  date: string;
  iterationsPerCall: number;
  calls: [number, number];
  totals: [number, number];
  instructionsPerIteration: number;
  v8Flags: string[];
  node: string;
}

function totalOf(root: string, calls: number, iterations: number): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-loop-cost-'));
  const script = path.join(dir, 'loop.cjs');
  writeFileSync(
    script,
    `const { plantedWork } = require(${JSON.stringify(path.join(root, 'fixtures', 'work-per-request.cjs'))});\nfor (let r = 0; r < ${calls}; r++) plantedWork(${iterations});\n`,
  );
  execFileSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${path.join(dir, 'out')}`,
      process.execPath,
      ...DEFAULTS.compare.instructions.v8Flags,
      script,
    ],
    { stdio: 'ignore' },
  );
  const file = readdirSync(dir).find((f) => f.startsWith('out'))!;
  const total = callgrindTotal(readFileSync(path.join(dir, file), 'utf8'));
  if (total === null) throw new Error(`no total in ${file}`);
  return total;
}

export function measureLoopCost(root: string, iterationsPerCall = 20_000, calls: [number, number] = [50, 250]): LoopCost {
  const totals: [number, number] = [totalOf(root, calls[0], iterationsPerCall), totalOf(root, calls[1], iterationsPerCall)];
  return {
    date: new Date().toISOString(),
    iterationsPerCall,
    calls,
    totals,
    instructionsPerIteration: (totals[1] - totals[0]) / ((calls[1] - calls[0]) * iterationsPerCall),
    v8Flags: [...DEFAULTS.compare.instructions.v8Flags],
    node: process.version,
  };
}
