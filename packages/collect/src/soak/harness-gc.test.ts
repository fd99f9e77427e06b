import { describe, expect, it } from 'vitest';
import { harnessHeapAfterGc } from './harness-gc.js';

describe('harnessHeapAfterGc', () => {
  it('counts what is still referenced and not the garbage: 64 MB held, then dropped', () => {
    const before = harnessHeapAfterGc();
    let held: number[][] | null = Array.from({ length: 64 }, () => Array.from({ length: 131_072 }, (_, i) => i + 0.5));
    const holding = harnessHeapAfterGc();
    expect(held.length).toBe(64);
    held = null;
    const dropped = harnessHeapAfterGc();
    // 64 × 131,072 doubles are 64 MB; V8 stores them unboxed, 8 bytes each.
    expect(holding - before).toBeGreaterThan(60e6);
    expect(dropped - before).toBeLessThan(8e6);
  });
});
