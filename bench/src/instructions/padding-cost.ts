/**
 * Ground truth for a gateway no library can be preloaded into (Grafbase's static binary): the
 * candidate's subgraphs put whitespace before each answer's JSON (SUBGRAPH_PADDING_BYTES), which
 * the gateway must read and skip. What a padded byte costs is measured at a large dose, where the
 * count's noise is a ten-thousandth of the effect; planted runs then pad by a share of the baseline.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULTS } from '@gwprof/collect';
import type { PublishedCompare } from '@gwprof/results';
import { runCompareCli } from '../compare/driver.js';

export interface PaddingCost {
  kind: 'padding';
  date: string;
  gateway: string;
  /** Whitespace before each of the candidate's subgraph answers. */
  bytes: number;
  baselinePerRequest: number | null;
  candidatePerRequest: number | null;
  /** The candidate's extra instructions per request over `bytes`: what one byte of padding in every answer costs a request. */
  instructionsPerPaddedByte: number | null;
  exitCode: number | null;
}

/**
 * SUBGRAPH_PADDING_BYTES for both sides' subgraph addresses, as compare gives them by default: the
 * baseline's answers padded by `base` bytes, the candidate's by `base + extra`. Padding both sides
 * leaves out of the difference what padding costs once an answer is padded at all (a parser's slower
 * path for a value that does not start at the first byte): only the extra bytes' cost remains.
 */
export function sidesPadding(base: number, extra: number): string {
  const offset = DEFAULTS.compare.candidateSubgraphPortOffset;
  const ports = Object.values(DEFAULTS.subgraphPorts);
  return [...ports.map((port) => `${port}=${base}`), ...ports.map((port) => `${port + offset}=${base + extra}`)].join(',');
}

/**
 * What one more byte before every answer costs a request: the slope between the two largest doses
 * measured on the latest day, so that what any padding costs at all falls out.
 */
export function paddedByteCost(entries: readonly PaddingCost[]): { instructionsPerPaddedByte: number; doses: [PaddingCost, PaddingCost] } | null {
  const measured = entries.filter((e) => e.baselinePerRequest !== null && e.candidatePerRequest !== null);
  const day = measured.at(-1)?.date.slice(0, 10);
  const [small, large] = measured
    .filter((e) => e.date.startsWith(day ?? '-'))
    .sort((a, b) => a.bytes - b.bytes)
    .slice(-2);
  if (!small || !large || small.bytes === large.bytes) return null;
  const extra = (e: PaddingCost) => e.candidatePerRequest! - e.baselinePerRequest!;
  return { instructionsPerPaddedByte: (extra(large) - extra(small)) / (large.bytes - small.bytes), doses: [small, large] };
}

export function measurePaddingCost(options: { root: string; gateway: string; bytes: number }): PaddingCost {
  const started = new Date().toISOString();
  const { result, exitCode } = runCompareCli<PublishedCompare>({
    root: options.root,
    gateway: options.gateway,
    workDir: mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-padding-')),
    flags: ['--measure', 'instructions', '--no-profile'],
    env: { ...process.env, SUBGRAPH_PADDING_BYTES: sidesPadding(0, options.bytes) },
  });
  if (!result) throw new Error(`gwprof compare wrote no compare.json (exit ${exitCode})`);
  const gating = result.analysis?.levels[0]?.gating;
  const baseline = gating?.baseline.geometricMean ?? null;
  const candidate = gating?.candidate.geometricMean ?? null;
  return {
    kind: 'padding',
    date: started,
    gateway: options.gateway,
    bytes: options.bytes,
    baselinePerRequest: baseline,
    candidatePerRequest: candidate,
    instructionsPerPaddedByte: baseline !== null && candidate !== null ? (candidate - baseline) / options.bytes : null,
    exitCode,
  };
}
