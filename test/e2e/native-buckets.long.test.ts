/**
 * End to end, the long tier (`pnpm test:long`): a native gateway's CPU read back in buckets
 * against a ground truth. The compiled stub gateway (fixtures/native-stub/stub-gateway.c) runs,
 * per request, planted stages in functions of their own and sums each one's thread CPU time as it
 * serves; swept as a `cmd:` gateway, it is profiled by perf with DWARF unwinding, and each stage's
 * share by the stub's clock must come back in its bucket within 5%, read with the stub's bucket
 * rules and the built-in native ones (fixtures/native-stub/ground-truth.mjs does the work and
 * prints the figures). The profile's CPU must also account for the process's measured CPU.
 * Figures and their spread: docs/validation/cpu-buckets.md#native-gateways.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { portIsFree, repoRoot, tempDir } from './cli.js';

const BASE_PORT = 4720;
const script = path.join(repoRoot, 'fixtures', 'native-stub', 'ground-truth.mjs');

interface Figures {
  samples: number;
  ok: number;
  unattributedShare: number;
  stages: Array<{ stage: string; bucket: string; plantedShare: number; readShare: number; relativeError: number }>;
  sampledMsPerRequest: number;
  measuredMsPerRequest: number;
  msByBucket: Record<string, number>;
}

describe('a native gateway read back in buckets', () => {
  it('puts each planted stage of the compiled stub in its bucket within 5% of its share, and samples the CPU the process used', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--out', tempDir('native-buckets'), '--port', String(BASE_PORT)], {
      cwd: repoRoot,
      maxBuffer: 16 << 20,
    });
    const figures = JSON.parse(stdout) as Figures;

    for (const s of figures.stages) {
      const what = `${s.stage} (${s.bucket}): ${(100 * s.readShare).toFixed(2)}% of the planted time read back, ${(100 * s.plantedShare).toFixed(2)}% planted`;
      expect(Math.abs(s.relativeError), what).toBeLessThanOrEqual(0.05);
    }
    // One sample a millisecond of the stub's CPU (--interval-us 1000): as many as the CPU it used in
    // the window, which is how busy its core was, not a fixed count.
    expect(figures.samples).toBeGreaterThan(0.9 * figures.measuredMsPerRequest * figures.ok);
    // Every sample is placed: the stub's server loop and its system calls have rules too (its own, the kernel's).
    expect(figures.unattributedShare).toBeLessThan(0.01);
    expect(figures.msByBucket.kernel).toBeGreaterThan(0);
    // The samples account for the CPU the process used in the window (measured from /proc), within 5%.
    expect(Math.abs(figures.sampledMsPerRequest / figures.measuredMsPerRequest - 1)).toBeLessThan(0.05);
    for (const port of [0, 1, 2, 3, 4].map((i) => BASE_PORT + i)) expect(await portIsFree(port)).toBe(true);
  }, 120_000);
});
