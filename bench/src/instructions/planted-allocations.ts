/**
 * A planted number of allocations read back: a native gateway compared with itself by instructions,
 * the candidate preloaded with fixtures/native-work's library making K allocations per response;
 * the comparison's allocations per request, candidate minus baseline, against K.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PublishedCompare } from '@gwprof/results';
import { appendEntry } from '../compare/json-log.js';
import { candidateEnvFlags, runCompareCli } from '../compare/driver.js';

export interface PlantedAllocationEntry {
  date: string;
  gateway: string;
  perResponse: number;
  exitCode: number | null;
  baselinePerRequest: number | null;
  candidatePerRequest: number | null;
  /** (candidate − baseline) / perResponse: 1 when every planted allocation is read and nothing else moved. */
  readOverPlanted: number | null;
  epochs: number | null;
}

export function plantAllocations(options: { root: string; gateway: string; perResponse: number; library: string; out: string }): PlantedAllocationEntry {
  const { result, exitCode } = runCompareCli<PublishedCompare>({
    root: options.root,
    gateway: options.gateway,
    workDir: mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-alloc-')),
    flags: [
      '--measure',
      'instructions',
      ...candidateEnvFlags({ LD_PRELOAD: options.library, GWPROF_ALLOCATIONS_PER_RESPONSE: String(options.perResponse) }),
      '--no-profile',
    ],
  });
  const level = result?.analysis?.levels[0];
  const metric = level?.metrics.find((m) => m.metric === 'allocationsPerOkRequest');
  const baseline = metric?.baseline.median ?? null;
  const candidate = metric?.candidate.median ?? null;
  const entry: PlantedAllocationEntry = {
    date: new Date().toISOString(),
    gateway: options.gateway,
    perResponse: options.perResponse,
    exitCode,
    baselinePerRequest: baseline,
    candidatePerRequest: candidate,
    readOverPlanted: baseline !== null && candidate !== null ? (candidate - baseline) / options.perResponse : null,
    epochs: level?.decision?.epochs ?? null,
  };
  appendEntry(options.out, 'planted-allocations.json', entry);
  return entry;
}
