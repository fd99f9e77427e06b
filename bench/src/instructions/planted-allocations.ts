/**
 * A planted number of allocations read back: a native gateway compared with itself by instructions,
 * the candidate preloaded with fixtures/native-work's library making K allocations per response;
 * the comparison's allocations per request, candidate minus baseline, against K.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PublishedCompare } from '@gwprof/results';
import { appendEntry } from '../compare/json-log.js';

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
  const work = mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-alloc-'));
  const json = path.join(work, 'compare.json');
  const args = [
    path.join(options.root, 'packages/cli/dist/bin.js'),
    'compare',
    '--measure',
    'instructions',
    '--baseline',
    options.gateway,
    '--candidate',
    options.gateway,
    '--candidate-env',
    `LD_PRELOAD=${options.library}`,
    '--candidate-env',
    `GWPROF_ALLOCATIONS_PER_RESPONSE=${options.perResponse}`,
    '--no-profile',
    '--out',
    work,
    '--json',
    json,
    '--no-color',
  ];
  const child = spawnSync(process.execPath, args, { cwd: options.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  let result: PublishedCompare | null = null;
  try {
    result = JSON.parse(readFileSync(json, 'utf8')) as PublishedCompare;
  } catch {
    process.stderr.write(`no compare.json (exit ${child.status}): ${child.stderr.slice(-500)}\n`);
  }
  const level = result?.analysis?.levels[0];
  const metric = level?.metrics.find((m) => m.metric === 'allocationsPerOkRequest');
  const baseline = metric?.baseline.median ?? null;
  const candidate = metric?.candidate.median ?? null;
  const entry: PlantedAllocationEntry = {
    date: new Date().toISOString(),
    gateway: options.gateway,
    perResponse: options.perResponse,
    exitCode: child.status,
    baselinePerRequest: baseline,
    candidatePerRequest: candidate,
    readOverPlanted: baseline !== null && candidate !== null ? (candidate - baseline) / options.perResponse : null,
    epochs: level?.decision?.epochs ?? null,
  };
  appendEntry(options.out, 'planted-allocations.json', entry);
  return entry;
}
