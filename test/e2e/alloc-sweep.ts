/** The stub gateway swept with a known allocation per request, profiled: what both allocation test files run. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { portArgs, repoRoot, runCli, stubGateway, stubScenario, tempDir } from './cli.js';

export const BASE_PORT = 4590;
/** Bytes the stub allocates per request in its named function. */
export const REQUESTED = 200_000;

export async function profiledSweep(inlinable: boolean, extra: string[] = []): Promise<{ dir: string; run: RunResult }> {
  const out = tempDir('alloc');
  const env = ['STUB_SERVICE_MS=0', `STUB_ALLOC_BYTES=${extra.length > 0 ? 0 : REQUESTED}`, `STUB_ALLOC_INLINABLE=${inlinable ? 1 : 0}`];
  const result = await runCli([
    'sweep',
    '--gateway',
    stubGateway,
    ...stubScenario,
    ...env.flatMap((e) => ['--gateway-env', e]),
    '-c',
    '4',
    '-d',
    '4',
    '-w',
    '2',
    '--out',
    out,
    '--run-id',
    'a',
    '--no-color',
    ...portArgs(BASE_PORT),
    ...extra,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const dir = path.join(out, 'a');
  return { dir, run: JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResult };
}

/** Every file of a step that a user page (docs/*.md) or README names as written in a run folder: `step-<id>.flame.html` → `.flame.html`. */
export function stepFilesNamedInDocs(): string[] {
  const pages = [
    'README.md',
    ...readdirSync(path.join(repoRoot, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.join('docs', f)),
  ];
  const named = pages.flatMap((page) => [...readFileSync(path.join(repoRoot, page), 'utf8').matchAll(/`step-<id>((?:\.[a-z]+)+)`/g)].map((m) => m[1]!));
  return [...new Set(named)].sort();
}
