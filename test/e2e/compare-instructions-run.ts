/** `gwprof compare --measure instructions` with short batches, as the instruction tests run it. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PublishedCompare } from '@gwprof/results';
import { portArgs, repoRoot, runCli, tempDir } from './cli.js';

export const BASE_PORT = 4660;
export const ports = [...portArgs(BASE_PORT), '--candidate-port', String(BASE_PORT + 5)];
export const workPreload = path.join(repoRoot, 'fixtures', 'work-per-request.cjs');
// The stub's work per request settles within a hundred requests; batches of 20 are enough for a 4× effect.
const short = [
  '--measure',
  'instructions',
  '--warmup-requests',
  '100',
  '--batch-requests',
  '20',
  '--batches-per-epoch',
  '1',
  '--min-epochs',
  '3',
  '--budget',
  '8',
];

export async function compare(args: string[], runId: string): Promise<{ code: number | null; stdout: string; compare: PublishedCompare }> {
  const out = tempDir(`instr-${runId}`);
  const result = await runCli(['compare', ...args, ...short, '--no-color', '--out', out, '--run-id', runId, ...ports]);
  if (result.code === 2) throw new Error(`compare failed: ${result.stderr}\n${result.stdout}`);
  return { code: result.code, stdout: result.stdout, compare: JSON.parse(readFileSync(path.join(out, runId, 'compare.json'), 'utf8')) as PublishedCompare };
}

export function v8EventLogs(dir: string): string[] {
  return readdirSync(dir).filter((name) => /^isolate-.*-v8\.log$/.test(name));
}
