// `settle`: does TurboFan settle? One comparison's counted batches, in the order they ran, each with
// its instructions per request and the share of them in V8's optimising compilers (functions of
// v8::internal::compiler, maglev or turboshaft in the batch's callgrind dump): run with the counting
// flags but --no-opt, the compilers' share falls to nothing once every hot function is optimised.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCallgrindDump } from '@gwprof/analysis';
import type { CompareResult } from '@gwprof/results';

const COMPILER = /v8::internal::(compiler|maglev|turboshaft)::/;

export interface SettleRow {
  side: string;
  batch: number;
  /** Requests the process had answered before the batch: warm-up and earlier batches. */
  before: number;
  instructionsPerRequest: number;
  compilerPerRequest: number | null;
}

/** Each batch of the run folder's compare.json (its dumps still in the folder); a dump that is gone gives no compiler share. */
export function settleRows(runDir: string): SettleRow[] {
  const compare = JSON.parse(readFileSync(path.join(runDir, 'compare.json'), 'utf8')) as CompareResult;
  const design = compare.config.design!.instructions!;
  return (compare.batches ?? []).map((b) => {
    let compiler: number | null = null;
    try {
      const dump = parseCallgrindDump(readFileSync(path.join(runDir, b.dumpFile), 'utf8'));
      compiler = [...dump.selfByFunction.values()].filter((f) => COMPILER.test(f.fn)).reduce((sum, f) => sum + f.self, 0);
    } catch {
      compiler = null;
    }
    return {
      side: b.side,
      batch: b.batch,
      before: design.warmupRequests + (b.batch - 1) * design.batchRequests,
      instructionsPerRequest: b.instructionsPerOkRequest ?? Number.NaN,
      compilerPerRequest: compiler === null ? null : compiler / Math.max(1, b.ok),
    };
  });
}

export function settleTable(rows: readonly SettleRow[]): string[] {
  const m = (x: number) => (x / 1e6).toFixed(3);
  return [
    '| side | batch | requests before it | M instructions/request | of which in the optimising compilers, M | share |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.side} | ${r.batch} | ${r.before} | ${m(r.instructionsPerRequest)} | ${r.compilerPerRequest === null ? '–' : m(r.compilerPerRequest)} | ${r.compilerPerRequest === null ? '–' : `${((100 * r.compilerPerRequest) / r.instructionsPerRequest).toFixed(1)}%`} |`,
    ),
  ];
}
